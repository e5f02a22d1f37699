/**
 * `--flow` and the options under it (docs/flows.md, "Serve a flow"; docs/cli-checks.md,
 * "Options that belong to `--flow`"): the flow loaded, its decider checked, the oracle built, the
 * flow log's path, and the start-up line. Every failure is a `ProxyError` (exit 125).
 */
import { join } from "node:path";
import { all, flag, one, type ParsedArgs } from "./args.js";
import { makeOracle } from "../oracle/make-oracle.js";
import type { OracleKind } from "../oracle/oracle.js";
import { ProxyError } from "../util/proxy-error.js";
import { errorText } from "../util/error-text.js";
import { sessionPath } from "../util/session-path.js";
import { expandTilde } from "../util/tilde.js";
import type { PluginFactory } from "../bus/runtime/api.js";
import type { DeciderName } from "../flow/decide/types.js";
import { FlowLogFile } from "../plugins/flow/flow-log.js";
import { flowPlugin, type FlowSettings } from "../plugins/flow/flow-plugin.js";
import { loadFlow } from "../flow/ir/load-flow.js";
import type { Flow } from "../flow/ir/flow-types.js";
import { DEFAULT_WINDOW } from "../plugins/flow/surprise.js";
import { describeGate } from "../review/surprise-text.js";

/** The decider a flow is served with by default: its arbiter, else reach. */
export function defaultDecider(flow: Flow): DeciderName {
  return flow.folds.length > 0 ? "arbiter" : "reach";
}

/** The start-up check of a decider against the flow; the message, or undefined when it fits. */
export function deciderMismatch(flow: Flow, path: string, decider: DeciderName): string | undefined {
  if (decider === "arbiter" && flow.folds.length === 0) {
    return `${path} was learned without a System-One model: serve it with --flow-decider ${flow.reach === undefined ? "habit" : "reach"}`;
  }
  if (decider === "reach" && flow.reach === undefined) {
    return `${path} was learned before flows counted what comes before the next write: learn it again for --flow-decider reach`;
  }
  return undefined;
}

/** The line on stderr once the flow is loaded (without the `stretto-proxy: ` prefix). */
export function servingLine(flow: Flow, path: string, decider: DeciderName, shadow: boolean): string {
  return `serving the ${flow.manifest.domain} flow from ${path}, deciding with ${decider}${shadow ? ", in shadow" : ""}`;
}

/** `--flow-tools`: repeatable and comma-separated. */
export function flowTools(args: ParsedArgs): string[] | undefined {
  if (!flag(args, "flow-tools")) return undefined;
  return all<string>(args, "flow-tools")
    .flatMap((v) => v.split(","))
    .map((t) => t.trim())
    .filter((t) => t !== "");
}

/**
 * The flow plugin the command line asks for, or undefined without `--flow`. `say` speaks
 * on stderr (prefixed).
 */
export function flowFromArgs(
  args: ParsedArgs,
  session: { session: string; hostSession?: string | undefined },
  say: (message: string) => void,
): PluginFactory | undefined {
  const path = one<string>(args, "flow");
  if (path === undefined) return undefined;
  const epsilon = one<number>(args, "flow-explore");
  if (epsilon !== undefined && !(epsilon >= 0 && epsilon <= 1)) throw new ProxyError("--flow-explore must be in [0, 1]");
  let flow: Flow;
  try {
    flow = loadFlow(path);
  } catch (err) {
    // One line on stderr, whatever a value named in the reason holds.
    // eslint-disable-next-line no-control-regex -- control characters are what it escapes
    throw new ProxyError(`loading ${path}`, errorText(err).replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1)));
  }
  const decider = one<DeciderName>(args, "flow-decider") ?? defaultDecider(flow);
  const mismatch = deciderMismatch(flow, path, decider);
  if (mismatch !== undefined) throw new ProxyError(mismatch);
  const shadow = flag(args, "flow-shadow");

  // habit and reach never ask the model: they get the mock, so no key is needed.
  const made = makeOracle(
    decider === "arbiter"
      ? { kind: one<OracleKind>(args, "oracle") ?? "jev", ...cacheOf(args) }
      : { kind: "mock" },
  );
  flow = withSurprise(flow, one<number | "off">(args, "flow-surprise"));
  say(servingLine(flow, path, decider, shadow));
  if (flow.surprise !== undefined) say(`the flow ${describeGate(flow.surprise)}`);
  if (made.notice !== undefined) say(made.notice);

  const logOpt = one<string>(args, "flow-log");
  const record = one<string>(args, "record");
  const logPath =
    logOpt !== undefined
      ? sessionPath(logOpt, session)
      : record !== undefined
        ? join(expandTilde(record), `${session.session}.flow.jsonl`)
        : undefined;

  const tools = flowTools(args);
  const taskId = one<string>(args, "task-id");
  const settings: FlowSettings = {
    flow,
    decider,
    oracle: made.oracle,
    shadow,
    ...optional("threshold", one<number>(args, "flow-threshold")),
    ...optional("perCall", one<number>(args, "flow-per-call")),
    ...optional("perSession", one<number>(args, "flow-per-session")),
    ...optional("questions", one<number>(args, "flow-questions")),
    ...optional("flowTools", tools),
    ...optional("taskId", taskId),
    ...optional("serverName", one<string>(args, "server-name")),
    ...(epsilon === undefined ? {} : { explore: { epsilon, seed: one<bigint>(args, "flow-explore-seed") ?? 0n } }),
    ...(logPath === undefined ? {} : { log: (s) => FlowLogFile.open(logPath, (m) => s.say(m)) }),
  };
  return flowPlugin(settings);
}

/**
 * The flow with `--flow-surprise` applied: `off` removes its gate; a threshold sets the gate's,
 * keeping its window (5 when it had none), no longer the quantile it was learned at.
 */
export function withSurprise(flow: Flow, override: number | "off" | undefined): Flow {
  if (override === undefined) return flow;
  if (override === "off") {
    const rest = { ...flow };
    delete rest.surprise;
    return rest;
  }
  return { ...flow, surprise: { window: flow.surprise?.window ?? DEFAULT_WINDOW, threshold: override } };
}

function cacheOf(args: ParsedArgs): { cache?: string } {
  const cache = one<string>(args, "oracle-cache");
  return cache === undefined ? {} : { cache };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
