import { jsonNumber, type Json, type JsonObject } from "./json.js";

/** A JSON syntax error worded as the reference reader words it (`expected value at line 1 column 1`). */
export class JsonSyntaxError extends Error {}

/**
 * Parses one JSON text into `Json`, keeping each number's kind. Whitespace is only the four
 * characters JSON allows, around the value; anything after it is an error.
 */
export function parseJson(text: string): Json {
  const p = new Parser(text);
  p.ws();
  const v = p.value();
  p.ws();
  if (p.i < text.length) p.fail("trailing characters");
  return v;
}

/** `parseJson`, or `undefined` for text that is not JSON. */
export function tryParseJson(text: string): Json | undefined {
  try {
    return parseJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return undefined;
    throw err;
  }
}

class Parser {
  i = 0;
  constructor(private readonly s: string) {}

  fail(what: string): never {
    let line = 1;
    let col = 0;
    const end = Math.min(this.i, this.s.length - 1);
    for (let k = 0; k <= end; k++) {
      if (this.s[k] === "\n") {
        line++;
        col = 0;
      } else col++;
    }
    if (this.s.length === 0) col = 0;
    throw new JsonSyntaxError(`${what} at line ${line} column ${col}`);
  }

  ws(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") this.i++;
      else return;
    }
  }

  value(): Json {
    const c = this.s[this.i];
    if (c === undefined) this.fail("EOF while parsing a value");
    switch (c) {
      case "{":
        return this.object();
      case "[":
        return this.array();
      case '"':
        return this.string();
      case "t":
        return this.word("true", true);
      case "f":
        return this.word("false", false);
      case "n":
        return this.word("null", null);
      default:
        if (c === "-" || (c >= "0" && c <= "9")) return this.number();
        this.fail("expected value");
    }
  }

  private word<T extends Json>(w: string, v: T): T {
    for (const ch of w) {
      if (this.s[this.i] === undefined) this.fail("EOF while parsing a value");
      if (this.s[this.i] !== ch) this.fail("expected ident");
      this.i++;
    }
    return v;
  }

  private number(): Json {
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(this.s.slice(this.i, this.i + 4096));
    if (!m || m[0] === "-") this.fail("invalid number");
    const text = m[0];
    this.i += text.length;
    const next = this.s[this.i];
    if (next === "." || next === "e" || next === "E") this.fail("invalid number");
    if (!Number.isFinite(Number(text))) this.fail("number out of range");
    return jsonNumber(text);
  }

  private string(): string {
    this.i++; // the opening quote
    let out = "";
    let start = this.i;
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) this.fail("EOF while parsing a string");
      if (c === '"') {
        out += this.s.slice(start, this.i);
        this.i++;
        return out;
      }
      if (c < " ") this.fail("control character (\\u0000-\\u001F) found while parsing a string");
      if (c !== "\\") {
        this.i++;
        continue;
      }
      out += this.s.slice(start, this.i);
      this.i++;
      const e = this.s[this.i];
      const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e === undefined) this.fail("EOF while parsing a string");
      if (e in simple) {
        out += simple[e];
        this.i++;
      } else if (e === "u") {
        const hex = this.s.slice(this.i + 1, this.i + 5);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid escape");
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += 5;
      } else this.fail("invalid escape");
      start = this.i;
    }
  }

  private array(): Json[] {
    this.i++;
    const out: Json[] = [];
    this.ws();
    if (this.s[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.ws();
      const c = this.s[this.i];
      if (c === undefined) this.fail("EOF while parsing a list");
      this.i++;
      if (c === "]") return out;
      if (c !== ",") {
        this.i--;
        this.fail("expected `,` or `]`");
      }
      this.ws();
      if (this.s[this.i] === "]") this.fail("trailing comma");
    }
  }

  private object(): JsonObject {
    this.i++;
    const out: JsonObject = new Map();
    this.ws();
    if (this.s[this.i] === "}") {
      this.i++;
      return out;
    }
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) this.fail("EOF while parsing an object");
      if (c !== '"') this.fail("key must be a string");
      const key = this.string();
      this.ws();
      if (this.s[this.i] === undefined) this.fail("EOF while parsing an object");
      if (this.s[this.i] !== ":") this.fail("expected `:`");
      this.i++;
      this.ws();
      out.set(key, this.value());
      this.ws();
      const d = this.s[this.i];
      if (d === undefined) this.fail("EOF while parsing an object");
      this.i++;
      if (d === "}") return out;
      if (d !== ",") {
        this.i--;
        this.fail("expected `,` or `}`");
      }
      this.ws();
      if (this.s[this.i] === "}") this.fail("trailing comma");
    }
  }
}
