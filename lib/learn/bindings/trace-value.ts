/**
 * Where a value an agent passed came from: the most recent output that shows it. A string
 * is found at its first path in document order; a list of strings at the first path of its
 * first element whose values hold every element.
 */
import type { Json } from "../../trace/index.js";
import { atPath, findPaths } from "../../flow/bind/index.js";

/** A successful output as the learner keeps it: its tool and its content parsed. */
export interface SeenOutput {
  tool: string;
  value: Json;
}

export type Source = [tool: string, path: string];

export function stringSource(outputs: readonly SeenOutput[], value: string): Source | undefined {
  for (let i = outputs.length - 1; i >= 0; i--) {
    const [path] = findPaths(outputs[i]!.value, value);
    if (path !== undefined) return [outputs[i]!.tool, path];
  }
  return undefined;
}

export function listSource(outputs: readonly SeenOutput[], list: readonly string[]): Source | undefined {
  if (list.length === 0) return undefined;
  for (let i = outputs.length - 1; i >= 0; i--) {
    const out = outputs[i]!;
    for (const path of findPaths(out.value, list[0]!)) {
      const values = new Set(atPath(out.value, path).map((f) => f.value));
      if (list.every((v) => values.has(v))) return [out.tool, path];
    }
  }
  return undefined;
}

export function isStringList(v: Json): v is string[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string");
}
