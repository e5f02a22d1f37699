/**
 * `learn --surprise Q [--surprise-window N]`: the surprise gate a learned flow is written with,
 * its threshold the Q quantile of held-out training sessions' most surprising windows.
 */
import type { Flow } from "../../flow/ir/flow-types.js";
import { learnGate } from "../../audit/learn-gate.js";
import type { LearnInput } from "../../learn/index.js";
import { DEFAULT_WINDOW } from "../../plugins/flow/surprise.js";
import { describeGate } from "../../review/surprise-text.js";
import { UsageError, type ParsedArgs } from "./command.js";

export const GATE_OPTIONS = ["--surprise", "--surprise-window"];

export const GATE_HELP = [
  "  --surprise Q      Give the flow a surprise gate: it hands back for the rest of a session",
  "                    once --surprise-window of the agent's steps in a row surprise it more",
  "                    than the Q quantile (0 < Q <= 1) of held-out training sessions' most",
  "                    surprising windows (see docs/audit-drift.md).",
  `  --surprise-window N  How many steps in a row the gate averages (default ${DEFAULT_WINDOW}).`,
];

export interface GateAsked {
  quantile: number;
  window: number;
}

/** The gate asked for, or undefined without `--surprise`; a usage error for a bad value. */
export function gateOptions(args: ParsedArgs, usage: string): GateAsked | undefined {
  const q = args.options.get("--surprise");
  const w = args.options.get("--surprise-window");
  if (q === undefined) {
    if (w !== undefined) throw new UsageError("--surprise-window needs --surprise", usage);
    return undefined;
  }
  const quantile = Number(q);
  if (q.trim() === "" || !(quantile > 0 && quantile <= 1)) throw new UsageError(`--surprise needs a quantile above 0 and at most 1, not ${q}`, usage);
  if (w === undefined) return { quantile, window: DEFAULT_WINDOW };
  const window = Number(w);
  if (!/^\d+$/.test(w.trim())) throw new UsageError(`--surprise-window needs a whole number of steps, not ${w}`, usage);
  if (window < 1) throw new UsageError("a surprise gate averages over one step or more", usage);
  return { quantile, window };
}

/** The flow with the gate learned from `input`, said on stderr as `the flow hands back …`. */
export function withLearnedGate(flow: Flow, input: LearnInput, asked: GateAsked, say: (m: string) => void): Flow {
  const surprise = learnGate(input, asked.quantile, asked.window);
  say(`the flow ${describeGate(surprise)}`);
  return { ...flow, surprise };
}
