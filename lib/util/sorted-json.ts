/**
 * Compact JSON with object keys sorted by their UTF-8 bytes, the way the original
 * (serde_json without `preserve_order`) writes the JSON it builds itself. Used where the
 * fact sheets show sorted keys (the demo server's answers); never for forwarded bytes.
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
