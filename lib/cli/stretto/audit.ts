/**
 * `stretto audit --flow FILE (--sessions DIR | --results FILE)...`: how well the flow
 * predicts the agent's steps in recorded sessions, with the decider it is audited with
 * (docs/audit-drift.md, "stretto audit").
 */
import { auditFlow, auditMarkdown } from "../../audit/index.js";
import type { Flow } from "../../flow/ir/flow-types.js";
import type { DeciderName } from "../../flow/decide/types.js";
import { LogReadError } from "../../trace/index.js";
import { fixed } from "../../review/numbers.js";
import { EXIT_OK, EXIT_UNREADABLE, say, UsageError, type Command, type Io, type ParsedArgs } from "./command.js";
import { DECIDER_OPTIONS, ORACLE_CACHE, ScoreError, scoredFlow } from "./audited-flow.js";
import { STRICT_FLAG } from "./folder-report.js";
import { QUIET_FLAG, QUIET_HELP } from "./progress.js";
import { ReportWriteError, writeReports } from "./report-files.js";
import { EPISODE_HELP, EPISODE_OPTIONS, episodeSource, episodesWithProgress } from "./scored-episodes.js";

const USAGE = "stretto audit --flow FILE (--sessions DIR | --otel FILE | --results FILE)... [options]";

/** An audit's default decider: the flow's arbiter, else the habit alone. */
export function auditDecider(flow: Flow): DeciderName {
  return flow.folds.length > 0 ? "arbiter" : "habit";
}

export const auditCommand: Command = {
  name: "audit",
  usage: USAGE,
  summary: "Score how well a flow predicts the agent's steps in recorded sessions.",
  help: [
    "At every decision point of each session (a tool result followed by something that is",
    "not a result), the flow's probabilities over the options offered there, nothing acted",
    "on, against what the agent did next: its next call if offered, `other` for another",
    "read, else handing back. Reports how often the flow's likeliest option was the agent's",
    "step, the surprise (nats per decision), calibration, each site, and the sessions the",
    "flow fit least. The proxy's own lookups are not the agent's steps.",
    "",
    "  --flow FILE         The flow to audit (required).",
    ...EPISODE_HELP,
    "  --decider NAME      arbiter, habit or reach (default: its arbiter, else the habit).",
    "  --oracle KIND       The System-One model the arbiter asks: replay (default), jev or mock.",
    `  --oracle-cache DIR  Its cache (default ${ORACLE_CACHE}).`,
    "  --out FILE          Write the report (Markdown) there instead of stdout.",
    "  --json FILE         Also write the audit as JSON there.",
    "  --strict            Fail (exit 1) on a file in --sessions that is no session log.",
    QUIET_HELP,
  ].join("\n"),
  valueOptions: ["--flow", ...EPISODE_OPTIONS, ...DECIDER_OPTIONS, "--out", "--json"],
  flagOptions: [STRICT_FLAG, QUIET_FLAG],
  run: (args, io) => audit(args, io),
};

async function audit(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`audit takes no positional arguments, not ${args.positionals.join(" ")}`, USAGE);
  const started = performance.now();
  try {
    const { flow, decider, oracle } = scoredFlow(io, args, USAGE, auditDecider, "audit it");
    const domain = flow.manifest.domain;
    const source = await episodeSource(io, args, domain, USAGE);
    if (!["--sessions", "--otel", "--results"].some((o) => args.lists.has(o))) throw new ScoreError(`no episodes to audit: pass --sessions, --otel or --results for ${domain}`);
    const read = episodesWithProgress(io, args, source, "auditing sessions");
    const report = await auditFlow(flow, read.episodes, { decider, ...(oracle === undefined ? {} : { oracle }) });
    read.done();
    await writeReports(io, args, auditMarkdown(flow, report), report);
    say(io, `audited ${report.decisions} decisions in ${report.episodes} episodes in ${fixed((performance.now() - started) / 1000, 1)} s`);
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof ScoreError || e instanceof ReportWriteError || e instanceof LogReadError)) throw e;
    say(io, e.message);
    return EXIT_UNREADABLE;
  }
}
