/**
 * Text rules shared by the features and the binding. Lengths count Unicode scalar values,
 * not UTF-16 units, and a digit is an ASCII digit only: tool output and tickets are
 * judged the same way whatever language they were read in.
 */

// Unicode White_Space, which is what the reference trims: unlike String.prototype.trim,
// U+0085 is whitespace and U+FEFF is not.
const WS = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const TRIM = new RegExp(`^[${WS}]+|[${WS}]+$`, "g");

export function trimWs(s: string): string {
  return s.replace(TRIM, "");
}

/** Length in Unicode scalar values. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function hasAsciiDigit(s: string): boolean {
  return /[0-9]/.test(s);
}

/** Three ASCII digits in a row: an id or a figure, which says nothing across tickets. */
export function hasDigitRun(s: string): boolean {
  return /[0-9]{3}/.test(s);
}

/**
 * The ticket's words and adjacent pairs: lowercased, split on every character that is
 * not ASCII a–z (digits and punctuation split words), empty pieces dropped.
 */
export function ticketWords(ticket: string): string[] {
  const words = ticket.toLowerCase().split(/[^a-z]+/).filter((w) => w !== "");
  const pairs = words.slice(1).map((w, i) => `${words[i]} ${w}`);
  return [...words, ...pairs];
}

const NOT_ID_CHAR = /[^\p{Alphabetic}\p{N}_.@-]+/u;

/**
 * The identifiers a ticket gives: pieces between characters that cannot be part of one,
 * at least four characters long with an ASCII digit. Trailing punctuation stays on the
 * piece (`555-123-2002.`), so a number ending a sentence names no record; that is the
 * rule the procedures were fitted with.
 */
export function givenIdentifiers(ticket: string): Set<string> {
  return new Set(ticket.split(NOT_ID_CHAR).filter((p) => charLength(p) >= 4 && hasAsciiDigit(p)));
}

type Token = { digits: number } | { char: string };

/**
 * The tokens of an `@ticket` shape: `\d{N}` is N ASCII digits, `\d` one, `\` + any other
 * character that character, anything else itself. A `\` at the end or a `\d{…}` whose N
 * is not a number makes a shape that finds nothing (undefined).
 */
function shapeTokens(pattern: string): Token[] | undefined {
  const cs = [...pattern];
  const tokens: Token[] = [];
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i]!;
    if (c !== "\\") {
      tokens.push({ char: c });
      continue;
    }
    const next = cs[++i];
    if (next === undefined) return undefined;
    if (next !== "d") {
      tokens.push({ char: next });
      continue;
    }
    if (cs[i + 1] !== "{") {
      tokens.push({ digits: 1 });
      continue;
    }
    const close = cs.indexOf("}", i + 2);
    const n = close === -1 ? "" : cs.slice(i + 2, close).join("");
    if (!/^[0-9]+$/.test(n)) return undefined;
    tokens.push({ digits: Number(n) });
    i = close;
  }
  return tokens;
}

/**
 * The first text in `haystack` of the shape `pattern` (a small language of its own, not a
 * regular expression), trying every start in turn with no word boundaries; undefined when
 * there is none. The empty shape finds the empty text.
 */
export function findShape(pattern: string, haystack: string): string | undefined {
  const tokens = shapeTokens(pattern);
  if (tokens === undefined) return undefined;
  const cs = [...haystack];
  for (let start = 0; start <= cs.length; start++) {
    let at = start;
    let ok = true;
    for (const t of tokens) {
      if ("char" in t) {
        if (cs[at] !== t.char) {
          ok = false;
          break;
        }
        at++;
      } else {
        for (let k = 0; k < t.digits; k++, at++) {
          const c = cs[at];
          if (c === undefined || c < "0" || c > "9") {
            ok = false;
            break;
          }
        }
        if (!ok) break;
      }
    }
    if (ok) return cs.slice(start, at).join("");
  }
  return undefined;
}
