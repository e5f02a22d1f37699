import { isObject, type Json } from "./json.js";

/** One step of a symbol's path: into every element of a list, or into one key of a record. */
export type Step = { every: true } | { key: string };

/**
 * The steps of a path such as `$.line_ids[*]` or `$[*].bill_id`. Text that is neither
 * `[*]` nor `.key` ends the parse quietly, so `$x` has no steps and selects the whole value.
 */
export function steps(path: string): Step[] {
  let rest = path.startsWith("$") ? path.slice(1) : path;
  const out: Step[] = [];
  for (;;) {
    if (rest.startsWith("[*]")) {
      out.push({ every: true });
      rest = rest.slice(3);
    } else if (rest.startsWith(".")) {
      const m = /^\.([^.[]*)/.exec(rest)!;
      out.push({ key: m[1]! });
      rest = rest.slice(m[0].length);
    } else return out;
  }
}

/** The values at `path` in `value`, in document order; lists and keys that are not there give nothing. */
export function select(value: Json, path: string): Json[] {
  let current: Json[] = [value];
  for (const step of steps(path)) {
    const next: Json[] = [];
    for (const v of current) {
      if ("every" in step) {
        if (Array.isArray(v)) next.push(...v);
      } else if (isObject(v)) {
        const x = v.get(step.key);
        if (x !== undefined) next.push(x);
      }
    }
    current = next;
  }
  return current;
}

/** The strings at `path`; numbers, bools and records there are passed over. */
export function stringsAt(value: Json, path: string): string[] {
  return select(value, path).filter((v): v is string => typeof v === "string");
}

/**
 * The records the last `[*]` of `path` walks, each with the rest of the path after it:
 * `$[*].bill_id` gives every bill and `$.bill_id`. A path with no `[*]` walks none.
 */
export function members(value: Json, path: string): { records: Json[]; rest: string } {
  const at = path.lastIndexOf("[*]");
  if (at === -1) return { records: [], rest: "$" };
  return { records: select(value, path.slice(0, at + 3)), rest: `$${path.slice(at + 3)}` };
}
