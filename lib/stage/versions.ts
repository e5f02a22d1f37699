/**
 * The committed flow's versions: `NAME.history/N.flow.json`, each with its record `N.json`
 * saying what the version was (found in place, committed, or rolled back to), when, and why.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import type { Flow } from "../flow/ir/flow-types.js";
import { FlowLoadError, parseFlow } from "../flow/ir/load-flow.js";
import { osErrorText } from "../util/os-errors.js";
import { StageError, writeWhole, type StagePaths } from "./files.js";

/** What a staged flow did on the last sessions before it was committed (the lookups its comparison counted). */
export interface Evidence {
  sessions: number;
  staged: { lookups: number; used: number; detours: number };
  committed?: { lookups: number; used: number; detours: number };
}

export interface VersionRecord {
  version: number;
  kind: "found" | "commit" | "rollback";
  unix_ms: number;
  restored?: number;
  note?: string;
  changes?: string[];
  evidence?: Evidence;
}

const counts = { type: "object", required: ["lookups", "used", "detours"], properties: { lookups: { type: "integer" }, used: { type: "integer" }, detours: { type: "integer" } } };
const recordSchema = {
  type: "object",
  required: ["version", "kind", "unix_ms"],
  properties: {
    version: { type: "integer", minimum: 1 },
    kind: { enum: ["found", "commit", "rollback"] },
    unix_ms: { type: "number" },
    restored: { type: "integer", minimum: 1 },
    note: { type: "string" },
    changes: { type: "array", items: { type: "string" } },
    evidence: { type: "object", required: ["sessions", "staged"], properties: { sessions: { type: "integer" }, staged: counts, committed: counts } },
  },
} as const;
let validator: ValidateFunction | undefined;

/** The version numbers kept, ascending. */
export function versionNumbers(paths: StagePaths): number[] {
  let files: string[];
  try {
    files = readdirSync(paths.history);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new StageError(`reading ${paths.history}: ${osErrorText(e)}`);
  }
  return files
    .map((f) => /^([1-9]\d*)\.flow\.json$/.exec(f)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

export function versionFlowPath(paths: StagePaths, n: number): string {
  return join(paths.history, `${n}.flow.json`);
}

/** The flow in `text`, read from `path`; a StageError `{path}: {why}` when it is no flow. */
export function flowOf(path: string, text: string): Flow {
  try {
    return parseFlow(text);
  } catch (e) {
    if (e instanceof FlowLoadError) throw new StageError(`${path}: ${e.message}`);
    throw e;
  }
}

export function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw new StageError(`reading ${path}: ${osErrorText(e)}`);
  }
}

/** Version `n`'s record. */
export function readRecord(paths: StagePaths, n: number): VersionRecord {
  const path = join(paths.history, `${n}.json`);
  let doc: unknown;
  try {
    doc = JSON.parse(readText(path));
  } catch (e) {
    if (e instanceof StageError) throw e;
    throw new StageError(`${path} is not a version record: not JSON`);
  }
  validator ??= new Ajv({ strict: false }).compile(recordSchema);
  if (!validator(doc)) throw new StageError(`${path} is not a version record: ${validator.errors?.[0]?.message ?? "invalid"}`);
  return doc as VersionRecord;
}

/** Keeps `flowText` as version `record.version`: the flow first, then its record. */
export function writeVersion(paths: StagePaths, flowText: string, record: VersionRecord): void {
  writeWhole(versionFlowPath(paths, record.version), flowText);
  writeWhole(join(paths.history, `${record.version}.json`), `${JSON.stringify(record, null, 2)}\n`);
}
