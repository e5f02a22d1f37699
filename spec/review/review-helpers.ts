/**
 * What the flow-show and flow-diff specs share: the published flow as JSON to edit, edited
 * copies written to a temporary folder, and the real `stretto` binary run on them.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NODE, STRETTO, run, tempDir, type Ran } from "../helpers/processes.js";
import type { FlowJson } from "../../lib/flow/ir/flow-json.js";
import { describeSchemaError, flowValidator } from "../../lib/flow/ir/flow-schema.js";
import { STANDARD_PROGRAM_JSON } from "../../lib/flow/program/standard-program.js";

/** A flow file as parsed JSON (the file's own shape), edited by the specs. */
export type { FlowJson };

/** `text` parsed as a flow file, checked against the flow schema so its type holds. */
export function parseFlowJson(text: string): FlowJson {
  const json: unknown = JSON.parse(text);
  const validate = flowValidator();
  if (!validate(json)) throw new Error(`not a flow file: ${validate.errors?.map(describeSchemaError).join("; ")}`);
  return json as FlowJson;
}

let folder: string | undefined;
let n = 0;

/** Writes `flow` to a fresh file and returns its path. */
export function writeFlow(flow: FlowJson, name = "flow"): string {
  // Another suite's cleanTemp() may have removed the folder: make a new one then.
  if (folder === undefined || !existsSync(folder)) folder = tempDir("stretto-review-");
  const path = join(folder, `${name}-${++n}.flow.json`);
  writeFileSync(path, JSON.stringify(flow));
  return path;
}

/** A deep copy of `flow` changed by `change`, as format 2 when `v2` (thresholds, constants, …). */
export function edited(flow: FlowJson, change: (f: FlowJson) => void, v2 = true): FlowJson {
  const copy = structuredClone(flow);
  change(copy);
  if (v2) copy["stretto_flow"] = 2;
  return copy;
}

export interface Output {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function stretto(...args: string[]): Promise<Output> {
  const r: Ran = await run(NODE, [STRETTO, ...args]);
  return { code: r.code, stdout: r.stdout.toString("utf8"), stderr: r.stderr };
}

/** `flow-show` of a flow held in memory. */
export async function show(flow: FlowJson, ...args: string[]): Promise<Output> {
  return stretto("flow-show", ...args, writeFlow(flow));
}

/** `flow-diff` of two flows held in memory. */
export async function diff(old: FlowJson, next: FlowJson, ...args: string[]): Promise<Output> {
  return stretto("flow-diff", ...args, writeFlow(old, "old"), writeFlow(next, "new"));
}

/** The standard program's JSON with its loop bound replaced. */
export function programWithBound(end: unknown): { fugue_program: number; body: readonly unknown[]; ret: unknown } {
  const [prev, failed, loop] = STANDARD_PROGRAM_JSON.body;
  return structuredClone({ ...STANDARD_PROGRAM_JSON, body: [prev, failed, { ...loop, end }] });
}

/** The row of the Markdown table whose first cell is `first`. */
export function row(markdown: string, first: string): string | undefined {
  return markdown.split("\n").find((l) => l.startsWith(`| ${first} |`));
}

/** The bullets under `## title` (up to the next heading). */
export function bullets(markdown: string, title: string): string[] {
  const start = markdown.indexOf(`\n## ${title}\n\n`);
  if (start === -1) return [];
  const rest = markdown.slice(start + title.length + 6);
  const end = rest.indexOf("\n## ");
  return (end === -1 ? rest : rest.slice(0, end))
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
}
