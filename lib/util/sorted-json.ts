/**
 * Compact JSON with object keys sorted by UTF-16 code unit order, the way the original
 * (serde_json without `preserve_order`) writes the JSON it builds itself. Used where the
 * fact sheets show sorted keys (the demo server's answers); never for forwarded bytes.
 */
export function sortedJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}
