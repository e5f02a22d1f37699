/**
 * Where the answer cache keeps an answer: `<dir>/<key[0..2]>/<key>.json`. Its own module so
 * that retention can recognise the cache's files without loading the cache (and its hashing).
 */

/** At least 3 lowercase hex digits: anything else could name a path outside the cache. */
export function isRequestKey(key: string): boolean {
  return /^[0-9a-f]{3,}$/.test(key);
}

/** The folder an answer's file sits in: the key's first two hex digits. */
export function answerFolder(key: string): string {
  return key.slice(0, 2);
}

/** Whether `<folder>/<file>` is where the cache would keep an answer. */
export function isAnswerPlace(folder: string, file: string): boolean {
  if (!file.endsWith(".json")) return false;
  const key = file.slice(0, -".json".length);
  return isRequestKey(key) && answerFolder(key) === folder;
}
