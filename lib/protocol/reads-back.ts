/** A log entry nests the message one level down; strict readers stop at 128, which leaves 126 for the message. */
export const MAX_DEPTH = 126;

/**
 * Whether a parsed value reads back in a strict reader (such as serde_json): no lone surrogate in
 * any string or key, no number past f64 (JSON.parse turns `1e400` into Infinity), and no
 * nesting deeper than MAX_DEPTH. One walk of the value, iterative (a 100 000-deep array
 * cannot overflow our stack); a line of one big string costs one native check.
 */
export function readsBack(value: unknown): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v === "string") {
      if (!v.isWellFormed()) return false;
    } else if (typeof v === "number") {
      if (!Number.isFinite(v)) return false;
    } else if (v !== null && typeof v === "object") {
      const level = d + 1;
      if (level > MAX_DEPTH) return false;
      if (Array.isArray(v)) {
        for (const x of v) stack.push([x, level]);
      } else {
        for (const k in v) {
          if (!k.isWellFormed()) return false;
          stack.push([(v as Record<string, unknown>)[k], level]);
        }
      }
    }
  }
  return true;
}
