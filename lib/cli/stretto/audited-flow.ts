/**
 * The flow `stretto audit` and `stretto drift` score, and the decider they score it with:
 * `--decider`, else the command's default; the oracle the arbiter asks.
 */
import { DECIDERS, type DeciderName } from "../../flow/decide/types.js";
import type { Flow } from "../../flow/ir/flow-types.js";
import { isOracleKind, makeOracle } from "../../oracle/make-oracle.js";
import type { Oracle } from "../../oracle/oracle.js";
import { say, UsageError, type Io, type ParsedArgs } from "./command.js";
import { readFlow as readReviewedFlow, ReviewError } from "./flow-file.js";

export const DECIDER_OPTIONS = ["--decider", "--oracle", "--oracle-cache"];
export const ORACLE_CACHE = ".oracle-cache";

/** Why a flow cannot be scored: the message is the command's. */
export class ScoreError extends Error {
  override name = "ScoreError";
}

export interface Scored {
  flow: Flow;
  decider: DeciderName;
  oracle?: Oracle;
}

/** The flow at `path`, read as flow-show reads it; a file that is no flow is a ScoreError saying why. */
export function readFlow(path: string): Flow {
  try {
    return readReviewedFlow(path);
  } catch (e) {
    if (e instanceof ReviewError) throw new ScoreError(e.message);
    throw e;
  }
}

/**
 * Loads `--flow` and checks the decider against it. `verb` is how the refusal names the
 * command's use (`audit it`, `watch it`).
 */
export function scoredFlow(io: Io, args: ParsedArgs, usage: string, fallback: (flow: Flow) => DeciderName, verb: string): Scored {
  const path = args.options.get("--flow");
  if (path === undefined) throw new UsageError("--flow FILE is required", usage);
  const named = args.options.get("--decider");
  if (named !== undefined && !(DECIDERS as readonly string[]).includes(named)) throw new UsageError(`--decider is arbiter, habit or reach, not ${named}`, usage);
  const kind = args.options.get("--oracle") ?? "replay";
  if (!isOracleKind(kind)) throw new UsageError(`--oracle is jev, replay or mock, not ${kind}`, usage);
  const flow = readFlow(path);
  const decider = (named as DeciderName | undefined) ?? fallback(flow);
  if (decider === "arbiter" && flow.folds.length === 0) throw new ScoreError(`the flow has no arbiter: ${verb} with --decider habit`);
  if (decider === "reach" && flow.reach === undefined) throw new ScoreError("the flow has no counts for --decider reach: learn it again");
  if (decider !== "arbiter") return { flow, decider };
  const made = makeOracle({ kind, cache: args.options.get("--oracle-cache") ?? ORACLE_CACHE });
  if (made.notice !== undefined) say(io, made.notice);
  return { flow, decider, oracle: made.oracle };
}
