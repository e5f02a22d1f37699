/**
 * Keys for request ids, by the value a JSON reader takes from them: `1` and `"1"` differ,
 * `"a"` and `"\u0061"` are one id, and a long integer keeps every digit (as a server that
 * reads integers exactly echoes it).
 */
export function idKeyOfText(idText: string): string {
  if (idText.startsWith('"')) return `s:${JSON.parse(idText) as string}`;
  // A plain integer keeps every digit; `1e2` is the number 100, as a server reads it.
  if (/^-?[0-9]+$/.test(idText)) return `n:${BigInt(idText).toString()}`;
  return idKeyOfValue(Number(idText));
}

/** The same key for an id already parsed (exact for integers a double holds). */
export function idKeyOfValue(id: string | number): string {
  if (typeof id === "string") return `s:${id}`;
  return Number.isInteger(id) ? `n:${BigInt(id).toString()}` : `n:${id}`;
}
