/**
 * `stretto drift --flow FILE (--sessions DIR | --results FILE)...`: watches the sessions a
 * flow served, in the order they started, for a change in the agent (docs/audit-drift.md,
 * "stretto drift"). Exit 1 while the alarm sounds, 2 on any error.
 */
import { drift, driftMarkdown } from "../../drift/index.js";
import { LogReadError } from "../../trace/index.js";
import { EXIT_OK, EXIT_UNREADABLE, EXIT_USAGE, say, UsageError, type Command, type Io, type ParsedArgs } from "./command.js";
import { DECIDER_OPTIONS, ORACLE_CACHE, ScoreError, scoredFlow } from "./audited-flow.js";
import { STRICT_FLAG } from "./folder-report.js";
import { QUIET_FLAG, QUIET_HELP } from "./progress.js";
import { ReportWriteError, writeReports } from "./report-files.js";
import { EPISODE_HELP, EPISODE_OPTIONS, episodeSource, episodesWithProgress } from "./scored-episodes.js";

const USAGE = "stretto drift --flow FILE (--sessions DIR | --otel FILE | --results FILE)... [options]";

export const driftCommand: Command = {
  name: "drift",
  usage: USAGE,
  summary: "Watch the sessions a flow served for a change in the agent (exit 1 on an alarm).",
  help: [
    "Scores each session under the flow, as stretto audit does, on three series: surprise",
    "(mean nats per decision), disagreement (the share of decisions where the flow's likeliest",
    "option was not the agent's step) and unknown tools (the share of the tools it called that",
    "training never saw). Bayesian online change-point detection over them gives, after each",
    "session, the probability that the agent changed within the last --window sessions (at",
    "least 10 sessions before, and at least 3 of the new run). An alarm sounds when it reaches",
    "--threshold; each names the sites that moved across the change. Exit 1 while the alarm",
    "sounds after the last session, 0 otherwise, 2 on an error.",
    "",
    "  --flow FILE         The flow the sessions were served with (required).",
    ...EPISODE_HELP,
    "  --decider NAME      habit (default), arbiter or reach.",
    "  --oracle KIND       The System-One model the arbiter asks: replay (default), jev or mock.",
    `  --oracle-cache DIR  Its cache (default ${ORACLE_CACHE}).`,
    "  --hazard P          The prior chance of a change at any session (default 0.01).",
    "  --window SESSIONS   How recent a change must be to sound (default 10; 3 or more).",
    "  --threshold P       The probability that sounds the alarm (default 0.5).",
    "  --out FILE          Write the report (Markdown) there instead of stdout.",
    "  --json FILE         Also write the result as JSON there.",
    "  --strict            Fail on a file in --sessions that is no session log.",
    QUIET_HELP,
  ].join("\n"),
  valueOptions: ["--flow", ...EPISODE_OPTIONS, ...DECIDER_OPTIONS, "--hazard", "--window", "--threshold", "--out", "--json"],
  flagOptions: [STRICT_FLAG, QUIET_FLAG],
  run: (args, io) => driftRun(args, io),
};

function probability(args: ParsedArgs, name: string, fallback: number): number {
  const raw = args.options.get(name);
  if (raw === undefined) return fallback;
  const p = Number(raw);
  if (raw.trim() === "" || !(p > 0 && p <= 1)) throw new UsageError(`${raw} is not a probability above 0 and at most 1`, USAGE);
  return p;
}

function windowOf(args: ParsedArgs): number {
  const raw = args.options.get("--window");
  if (raw === undefined) return 10;
  const w = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || w < 3) throw new UsageError(`--window needs a whole number of sessions, 3 or more, not ${raw}`, USAGE);
  return w;
}

async function driftRun(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`drift takes no positional arguments, not ${args.positionals.join(" ")}`, USAGE);
  const hazard = probability(args, "--hazard", 0.01);
  const threshold = probability(args, "--threshold", 0.5);
  const window = windowOf(args);
  try {
    const { flow, decider, oracle } = scoredFlow(io, args, USAGE, () => "habit", "watch it");
    const source = await episodeSource(io, args, flow.manifest.domain, USAGE);
    const read = episodesWithProgress(io, args, source, "scoring sessions");
    const result = await drift(flow, read.episodes, { decider, hazard, window, threshold, ...(oracle === undefined ? {} : { oracle }) });
    read.done();
    await writeReports(io, args, driftMarkdown(result), result);
    if (!result.sounding) return EXIT_OK;
    say(io, "the agent changed; the flow may no longer fit");
    return EXIT_UNREADABLE;
  } catch (e) {
    if (!(e instanceof ScoreError || e instanceof ReportWriteError || e instanceof LogReadError)) throw e;
    say(io, e.message);
    return EXIT_USAGE;
  }
}
