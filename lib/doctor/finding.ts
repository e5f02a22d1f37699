/** One line of `stretto doctor`'s report, and how the report is printed. */
export type Level = "ok" | "note" | "problem";

export interface Finding {
  level: Level;
  text: string;
  /** Listed under the finding, one a line. */
  items?: string[];
}

/** `ok       text`: the level padded to 9 columns, items indented 11 spaces. */
export function findingLines(f: Finding): string {
  const items = (f.items ?? []).map((i) => `${" ".repeat(11)}${i}\n`).join("");
  return `${f.level.padEnd(9)}${f.text}\n${items}`;
}

/** `1 session`, `2 sessions`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
