/**
 * How redaction cuts text into values and compares them: a value is compared trimmed,
 * lower-cased and without a leading `#` (an order a record writes `#W1` is often typed
 * `W1`); running text is cut into lines, lines into words at white space, and a word is
 * compared without the punctuation around it.
 */

/**
 * Unicode's White_Space characters. JavaScript's `\s` differs in two (it has U+FEFF, lacks
 * U+0085); redaction cuts words where the rest of the stretto tool family does.
 */
const WS = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const WS_RUN = new RegExp(`[${WS}]+`);
const WS_EDGES = new RegExp(`^[${WS}]+|[${WS}]+$`, "g");

/** Characters trimmed from a word of running text before it is compared; kept around what replaces it. */
const PUNCTUATION = new Set([".", ",", ";", ":", "!", "?", "(", ")", "[", "]", '"', "'", "`"]);

export function trimSpace(s: string): string {
  return s.replace(WS_EDGES, "");
}

/** A value as it is compared and hashed. */
export function normalize(value: string): string {
  return trimSpace(value).toLowerCase().replace(/^#+/, "");
}

/** The words of `text`, split at runs of white space (none for blank text). */
export function words(text: string): string[] {
  const t = trimSpace(text);
  return t === "" ? [] : t.split(WS_RUN);
}

/** Whether `text` holds two or more words (a phrase). */
export function isPhrase(text: string): boolean {
  return words(text).length >= 2;
}

/** Where a word's core starts and ends once the punctuation around it is set aside. */
export function coreBounds(word: string): [number, number] {
  let start = 0;
  let end = word.length;
  while (start < end && PUNCTUATION.has(word[start]!)) start++;
  while (end > start && PUNCTUATION.has(word[end - 1]!)) end--;
  return [start, end];
}

/** A word without the punctuation around it. */
export function core(word: string): string {
  const [start, end] = coreBounds(word);
  return word.slice(start, end);
}

/**
 * The lines of `text`: split at `\n`, a `\r` before it dropped, and no empty last line
 * after a final `\n` (so a text's lines re-joined with `\n` lose its final line break).
 */
export function lines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}
