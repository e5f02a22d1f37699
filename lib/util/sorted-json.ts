/**
 * Compact JSON with object keys sorted by their UTF-8 bytes, so the text is the same however
 * the object was built. Used where the output's text is fixed and documented with sorted
 * keys (the demo server's answers, which users and specs compare verbatim); never for
 * forwarded bytes, which keep the sender's order.
 *
 * Written out directly rather than by rebuilding objects: a rebuilt object would put
 * integer-like keys first and lose an own `__proto__` key.
 */
export function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((x) => (x === undefined ? "null" : sortedJson(x))).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
