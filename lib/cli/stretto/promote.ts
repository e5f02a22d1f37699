/**
 * `stretto promote --flow F --sessions DIR --out F`: scores the flow as
 * served against recorded sessions (shadow sessions, typically) and writes it with
 * `promoted`, so it acts only after the calls where its lookups were the agent's own.
 */
import { writeFile } from "node:fs/promises";
import { makeOracle } from "../../oracle/make-oracle.js";
import type { OracleKind } from "../../oracle/oracle.js";
import { DECIDERS, type DeciderName } from "../../flow/decide/types.js";
import { FlowLoadError, loadFlow } from "../../flow/ir/load-flow.js";
import type { Flow, PromotionBar } from "../../flow/ir/flow-types.js";
import { PER_CALL } from "../../plugins/flow/flow-plugin.js";
import { flowText } from "../../flow/ir/flow-to-json.js";
import { DEFAULT_BAR, episodeSessions, folderSessions, promoteServed, promotedSites, type SentSession } from "../../promote/index.js";
import { promotionMarkdown } from "../../review/promotion-table.js";
import { osErrorText } from "../../util/os-errors.js";
import { EXIT_OK, EXIT_UNREADABLE, TextOut, UsageError, say, type Command, type Io, type ParsedArgs } from "./command.js";
import { STRICT_FLAG, STRICT_HELP, planWithProgress } from "./folder-report.js";
import { ProgressLine, QUIET_FLAG, QUIET_HELP, quiet } from "./progress.js";
import { readTau2Results } from "./tau2-results.js";
import { readOtelEpisodes } from "../../trace/otel/index.js";
import { ownTask } from "./scored-episodes.js";

const USAGE = "stretto promote --flow FILE (--sessions DIR | --otel FILE | --results FILE)... --out FILE [options]";

export const promoteCommand: Command = {
  name: "promote",
  usage: USAGE,
  summary: "Keep a flow to the calls where its lookups were the agent's own (writes a promoted flow).",
  help: [
    "Scores the flow as it would be served against recorded sessions (shadow sessions, say):",
    "after each of the agent's calls, the lookup the flow would make, and whether the agent",
    "made it itself in a later LLM turn (used). Where it did, the flow goes on deciding after",
    "that lookup, as the proxy chains its lookups. A site (the call a decision follows) is",
    "promoted when at least --min-used of its lookups were used, the 90% interval's lower",
    "bound on that share is at least --min-lower, and they came from at least --min-tasks",
    "tasks (each session is its own task). Then it scores again, chaining only through the",
    "promoted sites as the promoted flow would, until the promotion repeats (8 rounds at",
    "most). The flow is written to --out with `promoted`; served, it hands back after every",
    "other call (`the site is not promoted`). The report (Markdown) goes to stdout or --report.",
    "In sessions a flow served, a lookup the proxy had already made before the agent's next",
    "LLM turn is served: it counts neither as used nor against the site.",
    "",
    "  --flow FILE          The flow to promote (required).",
    "  --out FILE           Where to write the promoted flow (required).",
    "  --sessions DIR       Session logs recorded by stretto-proxy (repeatable).",
    "  --otel FILE          OpenTelemetry spans (OTLP/JSON) instead of --sessions: each",
    "                       conversation or trace a session (repeatable; docs/otel.md).",
    "  --results FILE       A τ²-bench results.json: its simulations as sessions (repeatable).",
    "  --task-ids IDS       Score only these tasks (comma-separated): a session's id, or a",
    "                       τ²-bench simulation's task_id.",
    "  --decider NAME       arbiter, habit or reach. Default: the one the flow is served with",
    "                       (its arbiter, else reach when it holds reach counts, else habit).",
    "  --oracle KIND        The System-One model the arbiter asks: replay (default), jev or mock.",
    "  --oracle-cache DIR   Its cache (default .oracle-cache; pass the proxy's for shadow sessions).",
    "  --threshold P        The threshold the flow will be served at (default 0.3).",
    "  --min-used SHARE     Default 0.7.",
    "  --min-lower P        Default 0.5.",
    "  --min-tasks N        Default 3.",
    `  --per-call N         The most lookups after one call (default ${PER_CALL}).`,
    "  --report FILE        Write the report there instead of stdout.",
    "  --strict             Fail (exit 1) on a file in --sessions that is no session log.",
    QUIET_HELP,
    "",
    ...STRICT_HELP,
  ].join("\n"),
  valueOptions: [
    "--flow",
    "--out",
    "--sessions",
    "--otel",
    "--results",
    "--task-ids",
    "--decider",
    "--oracle",
    "--oracle-cache",
    "--threshold",
    "--min-used",
    "--min-lower",
    "--min-tasks",
    "--per-call",
    "--report",
  ],
  flagOptions: [STRICT_FLAG, QUIET_FLAG],
  run: (args, io) => promote(args, io),
};

/** The decider a flow is served with when none is named: its arbiter, else reach, else the habit. */
export function servedDecider(flow: Flow): DeciderName {
  if (flow.folds.length > 0) return "arbiter";
  return flow.reach === undefined ? "habit" : "reach";
}

function number(args: ParsedArgs, name: string, fallback: number, check: (x: number) => boolean, what: string): number {
  const raw = args.options.get(name);
  if (raw === undefined) return fallback;
  const x = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(x) || !check(x)) throw new UsageError(`${name} needs ${what}, not ${raw}`, USAGE);
  return x;
}

function barOf(args: ParsedArgs): PromotionBar {
  const share = (x: number) => x >= 0 && x <= 1;
  return {
    threshold: number(args, "--threshold", DEFAULT_BAR.threshold, (x) => x >= 0, "a probability"),
    minUsed: number(args, "--min-used", DEFAULT_BAR.minUsed, share, "a share in [0, 1]"),
    minLower: number(args, "--min-lower", DEFAULT_BAR.minLower, share, "a probability in [0, 1]"),
    minTasks: number(args, "--min-tasks", DEFAULT_BAR.minTasks, (x) => Number.isInteger(x) && x >= 0, "a whole number"),
  };
}

async function promote(args: ParsedArgs, io: Io): Promise<number> {
  const flowPath = args.options.get("--flow");
  const out = args.options.get("--out");
  if (flowPath === undefined) throw new UsageError("promote needs --flow FILE", USAGE);
  if (out === undefined) throw new UsageError("promote needs --out FILE", USAGE);
  const dirs = args.lists.get("--sessions") ?? [];
  const results = args.lists.get("--results") ?? [];
  const otelFiles = args.lists.get("--otel") ?? [];
  if (dirs.length === 0 && results.length === 0 && otelFiles.length === 0) throw new UsageError("promote needs --sessions DIR, --otel FILE or --results FILE", USAGE);
  if (dirs.length > 0 && otelFiles.length > 0) throw new UsageError("the argument '--otel <FILE>' cannot be used with '--sessions <DIR>'", USAGE);
  const deciderText = args.options.get("--decider");
  if (deciderText !== undefined && !(DECIDERS as readonly string[]).includes(deciderText)) {
    throw new UsageError(`--decider is arbiter, habit or reach, not ${deciderText}`, USAGE);
  }
  const oracleKind = args.options.get("--oracle") ?? "replay";
  if (!["jev", "replay", "mock"].includes(oracleKind)) throw new UsageError(`--oracle is jev, replay or mock, not ${oracleKind}`, USAGE);
  const bar = barOf(args);
  const perCall = number(args, "--per-call", PER_CALL, (x) => Number.isInteger(x) && x >= 1, "a whole number of 1 or more");
  const taskIds = args.options.get("--task-ids");
  const only = taskIds === undefined ? undefined : new Set(taskIds.split(",").map((t) => t.trim()).filter((t) => t !== ""));

  let flow: Flow;
  try {
    flow = loadFlow(flowPath);
  } catch (e) {
    say(io, `loading ${flowPath}: ${e instanceof FlowLoadError ? e.message : osErrorText(e)}`);
    return EXIT_UNREADABLE;
  }
  const decider = (deciderText as DeciderName | undefined) ?? servedDecider(flow);
  // The engine's own reasons: every decision would fail with them.
  if (decider === "reach" && flow.reach === undefined) {
    say(io, `${flowPath}: this flow was learned without the counts --decider reach reads`);
    return EXIT_UNREADABLE;
  }
  if (decider === "arbiter" && flow.folds.length === 0) {
    say(io, `${flowPath}: this flow has no arbiter, so it decides with the habit alone`);
    return EXIT_UNREADABLE;
  }
  const made = decider === "arbiter" ? makeOracle({ kind: oracleKind as OracleKind, cache: args.options.get("--oracle-cache") ?? ".oracle-cache" }) : undefined;
  if (made?.notice !== undefined) say(io, made.notice);

  const strict = args.flags.has(STRICT_FLAG);
  const quietly = quiet(args);
  const folders: Awaited<ReturnType<typeof planWithProgress>>[] = [];
  for (const dir of dirs) folders.push(await planWithProgress(io, dir, strict, quietly));
  const read: SentSession[] = [];
  for (const path of results) read.push(...episodeSessions((await readTau2Results(path)).episodes));
  for (const path of otelFiles) read.push(...episodeSessions((await readOtelEpisodes(path, flow.manifest.domain)).map(ownTask)));
  const total = folders.reduce((n, f) => n + f.folder.plan.sessions.length, 0) + read.length;
  const progress = new ProgressLine(io, { quiet: quietly });
  progress.start(total);
  let round = 0;
  const sessions = async function* (): AsyncGenerator<SentSession> {
    round += 1;
    let done = 0;
    const what = `scoring sessions (round ${round})`;
    const tick = () => progress.update(what, ++done, total);
    for (const { folder } of folders) {
      for await (const s of folderSessions(folder)) {
        if (only === undefined || only.has(s.episode.task_id)) yield s;
        tick();
      }
    }
    for (const s of read) {
      if (only === undefined || only.has(s.episode.task_id)) yield s;
      tick();
    }
  };

  const promoted = await promoteServed(flow, sessions, { decider, perCall, ...(made === undefined ? {} : { oracle: made.oracle }) }, bar);
  progress.done();
  const { promotion, scoring } = promoted;
  try {
    // Written as `stretto learn` writes a flow, so the two agree on every other field.
    await writeFile(out, flowText({ ...flow, promoted: promotion }));
  } catch (e) {
    say(io, `writing ${out}: ${osErrorText(e)}`);
    return EXIT_UNREADABLE;
  }
  const md = promotionMarkdown(promotion, new Map([...scoring.sites].map(([site, t]) => [site, t.served])));
  const report = args.options.get("--report");
  if (report !== undefined) {
    try {
      await writeFile(report, md);
    } catch (e) {
      say(io, `writing ${report}: ${osErrorText(e)}`);
      return EXIT_UNREADABLE;
    }
  } else {
    const text = new TextOut(io.stdout);
    await text.write(md);
    await text.flush();
  }
  const k = promotedSites(promotion).size;
  say(io, `scored ${scoring.episodes} episodes (${scoring.unanswered} decisions left out, unanswered); ${k} of ${promotion.sites.size} sites promoted`);
  if (k === 0) say(io, "no site met the bar, so the promoted flow hands back after every call");
  return EXIT_OK;
}
