/**
 * A quick yes to "is this line logged as `message`?" for the lines almost every session is
 * made of, read straight from the bytes with nothing allocated.
 *
 * `classifyLine` (log-entry.ts) decodes the line to a string and `JSON.parse`s it: for a line
 * of a megabyte that is two fresh megabyte-sized allocations, and touching fresh memory is
 * what recording spent most of its time on. This check accepts only a strict subset of what
 * `classifyLine` logs as `message`: UTF-8 text with no control byte at all, one JSON value
 * whose only whitespace is spaces, no `\u` escape of a surrogate, no number that could
 * round to infinity, nesting no deeper than MAX_DEPTH. Whatever it does not accept goes to
 * `classifyLine`, which decides, so the log is the same bytes either way.
 */
import { isUtf8 } from "node:buffer";
import { MAX_DEPTH } from "../protocol/reads-back.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const IN_OBJECT = 1;
const IN_ARRAY = 2;
/** 0x80808080 as an int32: each byte's top bit. */
const HIGH_BITS = 0x80808080 | 0;
/** Strings up to this long are scanned here; a longer one's quote is found by `indexOf`. */
const SHORT_STRING = 24;

/** Open containers, innermost last (a line is checked at a time, on one thread). */
const open = new Uint8Array(MAX_DEPTH);

/** The first and last byte of the JSON value in `body`, when it certainly logs as `message`. */
export function plainMessage(body: Buffer): { start: number; end: number } | undefined {
  if (hasControlByte(body) || !isUtf8(body)) return undefined;
  const s = new Scan(body);
  if (!s.value()) return undefined;
  const end = s.at;
  s.spaces();
  if (s.at !== body.length) return undefined;
  let start = 0;
  while (body[start] === SPACE) start++;
  return { start, end };
}

/**
 * Whether any byte is below 0x20, sixteen bytes a round where the buffer is aligned: each
 * word's borrow bits are gathered and looked at once per line, since lines almost never
 * have one (a borrow only ever sets a bit in a word that has such a byte).
 */
function hasControlByte(b: Buffer): boolean {
  let i = 0;
  const n = b.length;
  const lead = Math.min(n, (4 - (b.byteOffset & 3)) & 3);
  for (; i < lead; i++) if (b[i]! < SPACE) return true;
  const words = (n - i) >> 2;
  if (words > 16) {
    const w = wordsOf(b.buffer);
    const first = (b.byteOffset + i) >> 2;
    const last = first + words;
    let borrows = 0;
    let k = first;
    for (; k + 4 <= last; k += 4) {
      const x = w[k]!;
      const y = w[k + 1]!;
      const z = w[k + 2]!;
      const v = w[k + 3]!;
      borrows |= ((x - 0x20202020) & ~x) | ((y - 0x20202020) & ~y) | ((z - 0x20202020) & ~z) | ((v - 0x20202020) & ~v);
    }
    for (; k < last; k++) {
      const x = w[k]!;
      borrows |= (x - 0x20202020) & ~x;
    }
    if ((borrows & HIGH_BITS) !== 0) return true;
    i += words << 2;
  }
  for (; i < n; i++) if (b[i]! < SPACE) return true;
  return false;
}

/** The last buffer's words: lines come one after another from the same ring. */
let lastWords: { buffer: ArrayBufferLike; w: Int32Array } | undefined;

function wordsOf(buffer: ArrayBufferLike): Int32Array {
  if (lastWords?.buffer !== buffer) lastWords = { buffer, w: new Int32Array(buffer, 0, buffer.byteLength >> 2) };
  return lastWords.w;
}

/** A recursive-descent reader without recursion: containers are counted in `open`. */
class Scan {
  at = 0;
  private depth = 0;
  /** Where the next backslash is at or after `at` (the line's length when none is left). */
  private nextBackslash = -1;

  constructor(private readonly b: Buffer) {}

  spaces(): void {
    while (this.b[this.at] === SPACE) this.at++;
  }

  /** One value and everything after it up to the end of the outermost container. */
  value(): boolean {
    const b = this.b;
    for (;;) {
      this.spaces();
      const c = b[this.at];
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (this.depth === MAX_DEPTH) return false;
        open[this.depth++] = c === 0x7b ? IN_OBJECT : IN_ARRAY;
        this.at++;
        this.spaces();
        if (b[this.at] === (c === 0x7b ? 0x7d : 0x5d)) {
          this.depth--;
          this.at++;
        } else {
          if (c === 0x7b && !this.key()) return false;
          continue;
        }
      } else if (c === QUOTE) {
        if (!this.string()) return false;
      } else if (c === 0x74 /* t */) {
        if (!this.word("true")) return false;
      } else if (c === 0x66 /* f */) {
        if (!this.word("false")) return false;
      } else if (c === 0x6e /* n */) {
        if (!this.word("null")) return false;
      } else if (!this.number()) {
        return false;
      }
      // After a value: close containers until one goes on with a comma.
      for (;;) {
        if (this.depth === 0) return true;
        this.spaces();
        const kind = open[this.depth - 1];
        const next = b[this.at];
        if (next === 0x2c /* , */) {
          this.at++;
          if (kind === IN_OBJECT) {
            this.spaces();
            if (!this.key()) return false;
          }
          break;
        }
        if (next !== (kind === IN_OBJECT ? 0x7d : 0x5d)) return false;
        this.depth--;
        this.at++;
      }
    }
  }

  /** `"key" :`, leaving `at` on the value. */
  private key(): boolean {
    if (this.b[this.at] !== QUOTE || !this.string()) return false;
    this.spaces();
    if (this.b[this.at] !== 0x3a /* : */) return false;
    this.at++;
    return true;
  }

  /** A string from its opening quote; its bytes are already known UTF-8 with no control byte. */
  private string(): boolean {
    const b = this.b;
    // Most strings are keys and short values: a few bytes looked at here cost less than a
    // call out to `indexOf`.
    const stop = Math.min(b.length, this.at + 1 + SHORT_STRING);
    for (let k = this.at + 1; k < stop; k++) {
      const c = b[k];
      if (c === QUOTE) {
        this.at = k + 1;
        return true;
      }
      if (c === BACKSLASH) return this.escapedString();
    }
    return this.escapedString();
  }

  /** A string from its opening quote, its quote and escapes found by `indexOf`. */
  private escapedString(): boolean {
    const b = this.b;
    let i = this.at + 1;
    for (;;) {
      const quote = b.indexOf(QUOTE, i);
      if (quote < 0) return false;
      if (this.nextBackslash < i) {
        const found = b.indexOf(BACKSLASH, i);
        this.nextBackslash = found < 0 ? b.length : found;
      }
      if (this.nextBackslash > quote) {
        this.at = quote + 1;
        return true;
      }
      const e = this.nextBackslash;
      const x = b[e + 1];
      if (x === 0x75 /* u */) {
        if (!isHex(b[e + 2]) || !isHex(b[e + 3]) || !isHex(b[e + 4]) || !isHex(b[e + 5])) return false;
        // Any surrogate escape is left to the full check, which knows its pairs.
        if ((b[e + 2]! | 0x20) === 0x64 /* d */ && b[e + 3]! >= 0x38 /* 8 */ && b[e + 3]! <= 0x66) return false;
        i = e + 6;
      } else if (x === QUOTE || x === BACKSLASH || x === 0x2f || x === 0x62 || x === 0x66 || x === 0x6e || x === 0x72 || x === 0x74) {
        i = e + 2;
      } else {
        return false;
      }
    }
  }

  private word(w: string): boolean {
    for (let k = 0; k < w.length; k++) if (this.b[this.at + k] !== w.charCodeAt(k)) return false;
    this.at += w.length;
    return true;
  }

  /**
   * `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, and small enough that it
   * cannot round to infinity: under 10^(integer digits + exponent) ≤ 10^307.
   */
  private number(): boolean {
    const b = this.b;
    let i = this.at;
    if (b[i] === 0x2d) i++;
    const intStart = i;
    if (b[i] === 0x30) i++;
    else if (isDigit(b[i])) while (isDigit(b[i])) i++;
    else return false;
    const intDigits = i - intStart;
    if (b[i] === 0x2e) {
      i++;
      if (!isDigit(b[i])) return false;
      while (isDigit(b[i])) i++;
    }
    let exponent = 0;
    if (b[i] === 0x65 || b[i] === 0x45) {
      i++;
      let sign = 1;
      if (b[i] === 0x2b) i++;
      else if (b[i] === 0x2d) {
        sign = -1;
        i++;
      }
      if (!isDigit(b[i])) return false;
      const expStart = i;
      while (isDigit(b[i])) exponent = exponent * 10 + (b[i++]! - 0x30);
      if (i - expStart > 4) return false;
      exponent *= sign;
    }
    if (intDigits + Math.max(0, exponent) > 307) return false;
    this.at = i;
    return true;
  }
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66));
}
