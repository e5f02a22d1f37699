/**
 * Whether an output could offer a code field its tool's outputs have not offered yet, told
 * from its text without parsing it. The field table's first pass (field-table.ts) parses
 * every successful output only to collect a set of fields per tool, a set that stops
 * growing after the first few sessions; parsing each output was most of that pass.
 *
 * The skim walks the text as JSON and collects the fields `fieldsOf` would read from it
 * (each top-level key's value, and each key's of an object one level down: `L` for an
 * array, `S` for a scalar, nothing for a deeper object). For valid JSON that is exactly
 * what parsing gives, or more when a key is repeated (the parse keeps the last value, the
 * skim every one); text that does not parse to an object offers nothing. So when every
 * field the skim finds is known, parsing could add nothing, and the output can be skipped;
 * anything the skim cannot read plainly (a key with an escape, text that is not JSON)
 * answers "maybe", and the caller parses.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** JSON's whitespace only: anything else before the value makes the text fail to parse. */
function skipSpace(t: string, i: number): number {
  for (;;) {
    const c = t.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

/** The index after the string opening at `i`, or -1 when it does not end. */
function stringEnd(t: string, i: number): number {
  for (let from = i + 1; ; ) {
    const q = t.indexOf('"', from);
    if (q < 0) return -1;
    let slashes = 0;
    while (t.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** The index after the value starting at `i` (its first character, not whitespace), or -1. */
function valueEnd(t: string, i: number): number {
  const first = t.charCodeAt(i);
  if (first === QUOTE) return stringEnd(t, i);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    // A number or a literal: up to the next separator.
    let j = i;
    for (; j < t.length; j++) {
      const c = t.charCodeAt(j);
      if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) break;
    }
    return j === i ? -1 : j;
  }
  let depth = 0;
  for (let j = i; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c === QUOTE) {
      j = stringEnd(t, j);
      if (j < 0) return -1;
      j--;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (--depth === 0) return j + 1;
    }
  }
  return -1;
}

/**
 * Walks the members of the object opening at `i`, giving `member` each key (only keys
 * written without an escape) and the index of its value's first character; `member`
 * returns the index after the value, or -1 to stop. Returns the index after the object,
 * or -1 when the walk stopped or could not read the object plainly.
 */
function members(t: string, i: number, member: (key: string, at: number) => number): number {
  i = skipSpace(t, i + 1);
  if (t.charCodeAt(i) === CLOSE_OBJECT) return i + 1;
  for (;;) {
    if (t.charCodeAt(i) !== QUOTE) return -1;
    const end = stringEnd(t, i);
    if (end < 0) return -1;
    const key = t.slice(i + 1, end - 1);
    if (key.includes("\\")) return -1;
    i = skipSpace(t, end);
    if (t.charCodeAt(i) !== COLON) return -1;
    i = member(key, skipSpace(t, i + 1));
    if (i < 0) return -1;
    i = skipSpace(t, i);
    const c = t.charCodeAt(i);
    if (c === CLOSE_OBJECT) return i + 1;
    if (c !== COMMA) return -1;
    i = skipSpace(t, i + 1);
  }
}

/**
 * False when every field `text` offers (as `fieldsOf` reads its parse) is a key of
 * `known` (`L` or `S` then the path: field-table.ts's `fieldKey`); true when one may not be.
 */
export function mayOfferNew(text: string, known: ReadonlyMap<string, unknown>): boolean {
  const start = skipSpace(text, 0);
  // Not an object (or not JSON): parsing offers nothing.
  if (text.charCodeAt(start) !== OPEN_OBJECT) return false;
  const field = (path: string, at: number, nested: boolean): number => {
    const c = text.charCodeAt(at);
    if (c === OPEN_OBJECT && nested) return members(text, at, (key, from) => field(`${path}.${key}`, from, false));
    if (c === OPEN_ARRAY ? !known.has(`L${path}`) : c !== OPEN_OBJECT && !known.has(`S${path}`)) return -1;
    return valueEnd(text, at);
  };
  return members(text, start, (key, at) => field(`$.${key}`, at, true)) < 0;
}
