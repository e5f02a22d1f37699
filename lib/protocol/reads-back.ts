/** A log entry nests the message one level down; strict readers stop at 128, which leaves 126 for the message. */
export const MAX_DEPTH = 126;

/**
 * Whether a parsed value reads back in a strict reader (such as serde_json): no lone surrogate in
 * any string or key, no number past f64 (JSON.parse turns `1e400` into Infinity), and no
 * nesting deeper than MAX_DEPTH. One walk of the value, allocating nothing (it runs on every
 * line an active session reads and every line the log holds); it recurses only MAX_DEPTH
 * deep, so a 100 000-deep array cannot overflow the stack. A line of one big string costs
 * one native check.
 */
export function readsBack(value: unknown): boolean {
  return readsBackAt(value, 0);
}

function readsBackAt(v: unknown, depth: number): boolean {
  if (typeof v === "string") return v.isWellFormed();
  if (typeof v === "number") return Number.isFinite(v);
  if (v === null || typeof v !== "object") return true;
  const level = depth + 1;
  if (level > MAX_DEPTH) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!readsBackAt(v[i], level)) return false;
    return true;
  }
  for (const k in v) {
    if (!k.isWellFormed() || !readsBackAt((v as Record<string, unknown>)[k], level)) return false;
  }
  return true;
}
