/**
 * Where a value an agent passed came from: the most recent output that shows it. A string
 * is found at its first path in document order; a list of strings at the first path of its
 * first element whose values hold every element.
 *
 * An output is parsed only when its text could show the value: most of a session's outputs
 * never show a value passed after them, and parsing each one was most of the count pass.
 */
import type { Json } from "../../trace/index.js";
import { atPath, findPaths, firstPath, parseOutput } from "../../flow/bind/index.js";

/** A successful output as the learner keeps it: its tool, its text, and the text parsed once asked. */
export class SeenOutput {
  private parsed: Json | undefined;
  private escapes: boolean | undefined;

  constructor(
    readonly tool: string,
    readonly content: string,
  ) {}

  /** The content parsed as the binder reads an output (`parseOutput`), once. */
  get value(): Json {
    return (this.parsed ??= parseOutput(this.content));
  }

  /**
   * Whether the parsed output may hold the string `s` as a value. A string the output holds
   * is its text, a trimmed line of it, or a JSON string in it, which is written verbatim
   * unless it has an escape (`\\`): so text with no backslash that does not contain `s`
   * cannot hold it.
   */
  mayShow(s: string): boolean {
    if (this.content.includes(s)) return true;
    return (this.escapes ??= this.content.includes("\\"));
  }
}

export type Source = [tool: string, path: string];

export function stringSource(outputs: readonly SeenOutput[], value: string): Source | undefined {
  for (let i = outputs.length - 1; i >= 0; i--) {
    const out = outputs[i]!;
    if (!out.mayShow(value)) continue;
    const path = firstPath(out.value, value);
    if (path !== undefined) return [out.tool, path];
  }
  return undefined;
}

export function listSource(outputs: readonly SeenOutput[], list: readonly string[]): Source | undefined {
  if (list.length === 0) return undefined;
  for (let i = outputs.length - 1; i >= 0; i--) {
    const out = outputs[i]!;
    if (!out.mayShow(list[0]!)) continue;
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
