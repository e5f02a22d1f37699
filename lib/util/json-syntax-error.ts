/**
 * Where a JSON text stops being JSON, and why, in words that quote none of it. V8's own
 * messages echo a slice of the text (`Unexpected token 'p', "password=h"...`), which may
 * hold a secret and may span lines; this names the position instead, as serde_json does
 * (`expected value at line 3 column 7`). Run only after JSON.parse has refused the text.
 */
export interface JsonSyntaxError {
  reason: string;
  /** 1-based line and column (in characters) of the first byte that is wrong. */
  line: number;
  column: number;
}

/** The first syntax error in `text`, or undefined when it finds none. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    new Scanner(text).document();
    return undefined;
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    return { reason: err.reason, ...position(text, err.at) };
  }
}

/** `expected value at line 1 column 1`, or `not valid JSON` when the scanner finds nothing. */
export function describeJsonSyntaxError(text: string): string {
  const e = jsonSyntaxError(text);
  return e === undefined ? "not valid JSON" : `${e.reason} at line ${e.line} column ${e.column}`;
}

/** Thrown to end the scan at the first error; caught inside this module. */
class Stop extends Error {
  constructor(
    readonly at: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const WHITESPACE = " \t\n\r";
const ESCAPES = '"\\/bfnrt';
const HEX = /^[0-9a-fA-F]{4}$/;

/** An iterative scanner (a deep `[[[…` cannot overflow the stack). */
class Scanner {
  private i = 0;
  private readonly open: Array<"{" | "["> = [];

  constructor(private readonly s: string) {}

  document(): void {
    for (;;) {
      if (this.value() === "opened") continue; // its first member is next
      if (this.closeAndContinue()) return;
    }
  }

  /** One whole value, or the opening of a non-empty container. */
  private value(): "done" | "opened" {
    this.space();
    const c = this.s[this.i];
    if (c === undefined) throw this.stop("EOF while parsing a value");
    if (c === "{" || c === "[") {
      this.i++;
      this.space();
      if (c === "[" && this.i >= this.s.length) throw this.stop("EOF while parsing a list");
      if (this.s[this.i] === (c === "{" ? "}" : "]")) {
        this.i++;
        return "done";
      }
      this.open.push(c);
      if (c === "{") this.key();
      return "opened";
    }
    if (c === '"') this.string();
    else if (c === "-" || isDigit(c)) this.number();
    else if (c === "t" || c === "f" || c === "n") this.literal();
    else throw this.stop("expected value");
    return "done";
  }

  /** After a value: closes what ends here; true at the end of the document. */
  private closeAndContinue(): boolean {
    for (;;) {
      this.space();
      const top = this.open.at(-1);
      if (top === undefined) {
        if (this.i < this.s.length) throw this.stop("trailing characters");
        return true;
      }
      const close = top === "{" ? "}" : "]";
      const c = this.s[this.i];
      if (c === undefined) throw this.stop(top === "{" ? "EOF while parsing an object" : "EOF while parsing a list");
      if (c === close) {
        this.open.pop();
        this.i++;
        continue;
      }
      if (c !== ",") throw this.stop(`expected \`,\` or \`${close}\``);
      this.i++;
      this.space();
      if (this.s[this.i] === close) throw this.stop("trailing comma");
      if (top === "{") this.key();
      return false;
    }
  }

  private key(): void {
    this.space();
    const c = this.s[this.i];
    if (c === undefined) throw this.stop("EOF while parsing an object");
    if (c !== '"') throw this.stop("key must be a string");
    this.string();
    this.space();
    if (this.s[this.i] === undefined) throw this.stop("EOF while parsing an object");
    if (this.s[this.i] !== ":") throw this.stop("expected `:`");
    this.i++;
  }

  private string(): void {
    this.i++;
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) throw this.stop("EOF while parsing a string");
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === "\\") {
        const e = this.s[this.i + 1];
        if (e === undefined) throw this.stop("EOF while parsing a string", this.i + 1);
        if (e === "u") {
          if (!HEX.test(this.s.slice(this.i + 2, this.i + 6))) throw this.stop("invalid escape", this.i + 1);
          this.i += 6;
        } else if (ESCAPES.includes(e)) this.i += 2;
        else throw this.stop("invalid escape", this.i + 1);
      } else if (c.charCodeAt(0) < 0x20) {
        throw this.stop("control character (\\u0000-\\u001F) found while parsing a string");
      } else this.i++;
    }
  }

  private number(): void {
    if (this.s[this.i] === "-") this.i++;
    if (this.s[this.i] === "0") this.i++;
    else if (isDigit(this.s[this.i])) this.digits();
    else throw this.stop("invalid number");
    if (this.s[this.i] === ".") {
      this.i++;
      if (!isDigit(this.s[this.i])) throw this.stop("invalid number");
      this.digits();
    }
    if (this.s[this.i] === "e" || this.s[this.i] === "E") {
      this.i++;
      if (this.s[this.i] === "+" || this.s[this.i] === "-") this.i++;
      if (!isDigit(this.s[this.i])) throw this.stop("invalid number");
      this.digits();
    }
  }

  private literal(): void {
    for (const word of ["true", "false", "null"]) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    throw this.stop("expected ident");
  }

  private digits(): void {
    while (isDigit(this.s[this.i])) this.i++;
  }

  private space(): void {
    while (this.i < this.s.length && WHITESPACE.includes(this.s[this.i]!)) this.i++;
  }

  private stop(reason: string, at = this.i): Stop {
    return new Stop(at, reason);
  }
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

/** 1-based line and column of `offset`; a column counts characters, not UTF-16 units. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let nl = text.indexOf("\n"); nl !== -1 && nl < offset; nl = text.indexOf("\n", nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return { line, column: Array.from(text.slice(lineStart, offset)).length + 1 };
}
