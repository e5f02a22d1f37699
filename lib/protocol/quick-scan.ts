/**
 * The strict check's fast path: one pass over the text of a line that `JSON.parse` has
 * already read, finding what `JSON.parse` cannot see (the depth, where each message sits
 * and how its `id` is written, and how many keys the text writes: a key written twice in
 * one object leaves the parsed value one key short, which {@link sameKeyCount} tells, unless
 * the scan could compare each object's keys as written and found none twice). It
 * only has to say "clean" or "ask the full scan": text that parsed is JSON by the grammar
 * the full scan also applies (same whitespace, escapes and numbers), so a clean answer here
 * is the answer the full scan would give, and anything else goes to it.
 */

/** One message's place in the text and its first `id` as written. */
export interface QuickPart {
  readonly offset: number;
  readonly length: number;
  readonly idText: string | undefined;
}

/**
 * What a scan found. It is the scanner's own, valid until the next scan (the strict check
 * reads it at once), so that a line costs no objects here but its ids' texts.
 */
export interface QuickScan {
  readonly batch: boolean;
  /** The messages: the first `count` of `parts`. */
  readonly parts: readonly QuickPart[];
  readonly count: number;
  /** Whether a value may be one a strict reader reads differently (a surrogate escape, a number past a double): walk it. */
  readonly mayBeUnreadable: boolean;
  /** How many keys the text writes, in all its objects (see {@link sameKeyCount}). */
  readonly keys: number;
  /**
   * Whether every object's keys were compared as written and none repeats: no key holds an
   * escape (two spellings of one key) and no object has more than MAX_KEYS_COMPARED. Then no
   * key is written twice, and the count need not be checked against the parsed value.
   */
  readonly keysDistinct: boolean;
}

/** Deeper than this, the full scan decides (its limit, with room for the batch). */
const MAX_DEPTH = 100;

/**
 * An object with more keys than this has them counted against the parsed value instead of
 * compared with each other (comparing costs the square of the keys).
 */
const MAX_KEYS_COMPARED = 16;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

interface OpenPart {
  offset: number;
  length: number;
  idText: string | undefined;
}

/** What each scan returns (see {@link QuickScan}). */
const found = { batch: false, parts: [] as QuickPart[], count: 0, mayBeUnreadable: false, keys: 0, keysDistinct: false };

/** Per open container (by depth): 1 for an object, 0 for an array. */
const open = new Uint8Array(MAX_DEPTH + 2);

/**
 * The keys of the open objects as written, where each begins (at its opening quote) and its
 * length with the quotes: each object's keys follow those of the objects it is in, from
 * `keysFrom[depth]` on. A key is compared with those of its object before it, without making
 * a string of any.
 */
const keyAt = new Int32Array((MAX_DEPTH + 2) * MAX_KEYS_COMPARED);
const keyLength = new Int32Array((MAX_DEPTH + 2) * MAX_KEYS_COMPARED);
const keysFrom = new Int32Array(MAX_DEPTH + 2);

/**
 * The parts of the scan under way, reused from scan to scan (the first `count` are this
 * scan's): a scan never nests in another and calls nothing that could start one. What the
 * scan tracks (its depth, where an id begins) it keeps in locals, not in an object: each is
 * read at almost every character.
 */
const parts: OpenPart[] = [];

/**
 * Scans `text`, which `JSON.parse` accepted. Undefined when the full scan must decide: a
 * message that is not an object, an empty batch, deep nesting, an `id` key written with an
 * escape. (A key twice is told by the count, against the parsed value.)
 */
export function quickScan(text: string): QuickScan | undefined {
  const n = text.length;
  let i = 0;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  const batch = text.charCodeAt(i) === OPEN_BRACKET;
  const messageDepth = batch ? 2 : 1;
  // Messages begin at this depth: the line's value, or a batch's elements.
  const partDepth = messageDepth - 1;
  let count = 0;
  let depth = 0;
  // Whether the next value is a message's `id`; where an id that is an object or an array began, and at what depth.
  let idNext = false;
  let idStart = -1;
  let idDepth = -1;
  // How many keys are written so far; how many of the open objects' keys are kept, and whether all could be compared.
  let keys = 0;
  let keyTop = 0;
  let keysDistinct = true;
  let expectKey = false;
  let mayBeUnreadable = false;
  // Where the next backslash is (-1: none left), found again only once passed.
  let backslash = text.indexOf("\\");

  if (batch) {
    open[depth++] = 0;
    i++;
  }
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    // Where the string or literal value read here began.
    let start = i;
    if (c === QUOTE) {
      let escaped = false;
      // Most strings hold no escape: the closing quote is the next one.
      const close = text.indexOf('"', i + 1);
      if (backslash !== -1 && backslash < i) backslash = text.indexOf("\\", i);
      if (backslash === -1 || backslash > close) i = close;
      else {
        for (i++; i < n; i++) {
          const s = text.charCodeAt(i);
          if (s === QUOTE) break;
          if (s === BACKSLASH) {
            escaped = true;
            i++;
            // \uD800–\uDFFF: half of a pair, or a lone surrogate a strict reader refuses.
            if (text.charCodeAt(i) === 0x75 /* u */ && isSurrogateEscape(text, i + 1)) mayBeUnreadable = true;
          }
        }
      }
      if (expectKey && depth > 0 && open[depth - 1] === 1) {
        keys++;
        expectKey = false;
        if (escaped) keysDistinct = false;
        else if (keysDistinct) {
          const from = keysFrom[depth - 1]!;
          if (keyTop - from >= MAX_KEYS_COMPARED) keysDistinct = false;
          else {
            const length = i + 1 - start;
            for (let k = from; k < keyTop; k++) {
              // The same key written twice: the full scan words it.
              if (keyLength[k] === length && sameText(text, keyAt[k]!, start, length)) return undefined;
            }
            keyAt[keyTop] = start;
            keyLength[keyTop] = length;
            keyTop++;
          }
        }
        if (depth === messageDepth) {
          // A message's key written with an escape might be `id`: the full scan reads it.
          if (escaped) return undefined;
          idNext = i - start === 3 && text.charCodeAt(start + 1) === 0x69 /* i */ && text.charCodeAt(start + 2) === 0x64; /* d */
        }
        // The colon that most often follows is passed here, not by a turn of the loop.
        if (text.charCodeAt(i + 1) === COLON) i++;
        continue;
      }
      if (depth === partDepth) return undefined;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      // A container begins: a message's at the parts' depth, an id's after the key `id`.
      if (depth === partDepth) {
        if (c !== OPEN_BRACE) return undefined;
        let part = parts[count];
        if (part === undefined) parts.push((part = { offset: 0, length: 0, idText: undefined }));
        part.offset = i;
        part.length = 0;
        part.idText = undefined;
        count++;
      }
      if (idNext) {
        idStart = i;
        idDepth = depth;
        idNext = false;
      }
      if (depth >= MAX_DEPTH) return undefined;
      keysFrom[depth] = keyTop;
      open[depth++] = c === OPEN_BRACE ? 1 : 0;
      expectKey = c === OPEN_BRACE;
      continue;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 1 && batch) break;
      depth--;
      expectKey = false;
      // The object's keys are let go (an array's start where it began: nothing to let go).
      keyTop = keysFrom[depth]!;
      // A container ends: an id's, or a message's.
      const part = parts[count - 1]!;
      if (idStart !== -1 && idDepth === depth) {
        part.idText ??= text.slice(idStart, i + 1);
        idStart = -1;
      }
      if (depth === partDepth) part.length = i + 1 - part.offset;
      continue;
    } else if (c === COMMA) {
      expectKey = depth > 0 && open[depth - 1] === 1;
      continue;
    } else if (c === COLON || isSpace(c)) {
      continue;
    } else {
      // A number, true, false or null: up to the next delimiter.
      start = i;
      while (i + 1 < n && !isDelimiter(text.charCodeAt(i + 1))) i++;
      if (depth === partDepth) return undefined;
      if (!mayBeUnreadable && (i - start > 300 || hasExponent(text, start, i + 1))) mayBeUnreadable = true;
    }
    // A string or a literal value, inside a message (never one itself): the message's id when its key came just before.
    if (idNext) {
      parts[count - 1]!.idText ??= text.slice(start, i + 1);
      idNext = false;
    }
    // And the comma that most often follows a value (inside a message, so in a container).
    if (text.charCodeAt(i + 1) === COMMA) {
      expectKey = open[depth - 1] === 1;
      i++;
    }
  }
  if (count === 0) return undefined;
  found.batch = batch;
  found.parts = parts;
  found.count = count;
  found.mayBeUnreadable = mayBeUnreadable;
  found.keys = keys;
  found.keysDistinct = keysDistinct;
  return found;
}

/**
 * Whether `value` (what `JSON.parse` made of the scanned text) holds as many keys as the
 * text writes: an object whose text writes a key twice keeps it once, so any key written
 * twice anywhere leaves the parsed value short. Walks the value without allocating.
 */
export function sameKeyCount(value: unknown, keys: number): boolean {
  return countKeys(value, 0) === keys;
}

function countKeys(v: unknown, depth: number): number {
  if (v === null || typeof v !== "object" || depth > MAX_DEPTH) return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) n += countKeys(v[i], depth + 1);
    return n;
  }
  for (const k in v) n += 1 + countKeys((v as Record<string, unknown>)[k], depth + 1);
  return n;
}

/** Whether the `length` characters at `a` and at `b` are the same (the quotes, which match, compared too). */
function sameText(text: string, a: number, b: number, length: number): boolean {
  for (let k = 1; k < length - 1; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
}

/** Whether the number at `start`…`end` has an exponent (only such a number, or a very long one, can pass a double). */
function hasExponent(text: string, start: number, end: number): boolean {
  for (let k = start; k < end; k++) if ((text.charCodeAt(k) | 0x20) === 0x65 /* e */) return true;
  return false;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDelimiter(c: number): boolean {
  return c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c);
}

/** Whether the four hex digits at `at` are D800–DFFF. */
function isSurrogateEscape(text: string, at: number): boolean {
  const d = text.charCodeAt(at) | 0x20;
  const x = text.charCodeAt(at + 1) | 0x20;
  return d === 0x64 /* d */ && ((x >= 0x38 && x <= 0x39) || (x >= 0x61 && x <= 0x66));
}
