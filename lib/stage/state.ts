/**
 * The staged flow's state, `NAME.stage.json`: the sessions it has learned from, in order, and
 * the ledger of how each session scored, as it arrived, under the committed flow and under the
 * staged flow as it stood then; and the last comparison `stretto stage` reported.
 */
import { existsSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import { StageError, writeWhole } from "./files.js";
import { readText } from "./versions.js";

export const STAGE_FORMAT = 1;
/** The ledger keeps this many of the latest sessions. */
export const LEDGER_KEPT = 1000;

/** A flow's lookups after one site in one session: decisions, lookups, those the agent made later (used). */
export interface Counts {
  decisions: number;
  lookups: number;
  used: number;
  /** Lookups the proxy had already made, serving a flow (neither used nor detours). */
  served: number;
}

export interface Scored {
  sites: Record<string, Counts>;
  unanswered?: number;
}

export interface LedgerEntry {
  session: string;
  committed?: Scored;
  staged?: Scored;
}

export interface Comparison {
  domain: string;
  learned_unix_ms: number;
  sessions: number;
  new: number;
  committed: boolean;
  compared: number;
  sites: Record<string, { committed?: Counts; staged: Counts }>;
  total: { committed?: Counts; staged: Counts };
  unanswered: [number, number];
  changes: { title: string; changes: string[] }[];
  needs_review: string[];
  carried: string[];
}

export interface StageState {
  stretto_stage: number;
  domain: string;
  sessions: string[];
  ledger: LedgerEntry[];
  last?: Comparison;
}

const schema = {
  type: "object",
  required: ["stretto_stage", "domain", "sessions", "ledger"],
  properties: {
    stretto_stage: { type: "integer" },
    domain: { type: "string" },
    sessions: { type: "array", items: { type: "string" } },
    ledger: { type: "array", items: { type: "object", required: ["session"], properties: { session: { type: "string" } } } },
    last: { type: "object", required: ["learned_unix_ms"] },
  },
} as const;
let validator: ValidateFunction | undefined;

/** The state at `path` for a staged `domain` flow, or a fresh one when there is none. */
export function readState(path: string, domain: string): StageState {
  if (!existsSync(path)) return { stretto_stage: STAGE_FORMAT, domain, sessions: [], ledger: [] };
  let doc: unknown;
  try {
    doc = JSON.parse(readText(path));
  } catch (e) {
    if (e instanceof StageError) throw e;
    throw new StageError(`${path} is not a stage state: not JSON`);
  }
  const version = (doc as { stretto_stage?: unknown } | null)?.stretto_stage;
  if (typeof version === "number" && version !== STAGE_FORMAT) throw new StageError(`${path}: stage format ${version} is not supported (this build reads ${STAGE_FORMAT})`);
  validator ??= new Ajv({ strict: false }).compile(schema);
  if (!validator(doc)) throw new StageError(`${path} is not a stage state: ${validator.errors?.[0]?.message ?? "invalid"}`);
  const state = doc as StageState;
  if (state.domain !== domain) throw new StageError(`${path} is the staged ${state.domain} flow's state, not ${domain}'s`);
  return state;
}

export function writeState(path: string, state: StageState): void {
  const ledger = state.ledger.slice(Math.max(0, state.ledger.length - LEDGER_KEPT));
  writeWhole(path, `${JSON.stringify({ ...state, ledger }, null, 2)}\n`);
}
