/**
 * `stretto stage --flow NAME.flow.json (--sessions DIR | --results FILE...)`: learns the staged flow beside the
 * committed one from every session, and compares the two on each session as it arrived
 * (docs/staging.md). `stretto flow-commit` then makes it the committed flow.
 */
import { learnGate } from "../../audit/index.js";
import { DECIDERS, type DeciderName } from "../../flow/decide/types.js";
import { learnFromSessions, learnInput, LearnError, readFolderSessions, type FolderSessions, type SessionsOptions } from "../../learn/index.js";
import { isOracleKind, makeOracle } from "../../oracle/make-oracle.js";
import { PER_CALL } from "../../plugins/flow/flow-plugin.js";
import { stage, stageMarkdown, stagePaths, StageRefusal } from "../../stage/index.js";
import { VERSION } from "../../version.js";
import { say, UsageError, type Command, type Io, type ParsedArgs } from "./command.js";
import { ORACLE_CACHE } from "./audited-flow.js";
import { staging } from "./flow-commit.js";
import { STRICT_FLAG } from "./folder-report.js";
import { readManifestFile, readRewards } from "./learn-inputs.js";
import { QUIET_FLAG, QUIET_HELP } from "./progress.js";
import { ReportWriteError, writeReports } from "./report-files.js";
import { LogReadError } from "../../trace/index.js";
import { OTEL_CONVENTIONS } from "../../trace/otel/index.js";
import { wholeSessions } from "./whole-sessions.js";
import { episodeSource, type EpisodeSource } from "./scored-episodes.js";
import { tau2Manifest } from "./tau2-tools.js";

const USAGE = "stretto stage --flow NAME.flow.json (--sessions DIR | --otel FILE | --results FILE...) [options]";

export const stageCommand: Command = {
  name: "stage",
  usage: USAGE,
  summary: "Learn the staged flow beside a committed one, and compare them session by session.",
  help: [
    "Scores each session not seen before, as it arrived, under the committed flow FILE and",
    "under the staged flow as it stood (each as served: the lookups it would make, and",
    "whether the agent made them in a later LLM turn), then learns the staged flow",
    "NAME.staged.flow.json again from every session, as stretto learn --habit-only does. From",
    "the committed flow it keeps its arbiter, promotion and per-site thresholds, and learns",
    "its surprise gate again at the same quantile (a gate set by hand is kept). The report",
    "compares both flows on the latest sessions and lists what committing would change.",
    "State: NAME.stage.json. FILE need not exist yet (then name the domain).",
    "",
    "  --flow FILE         The committed flow, NAME.flow.json (required).",
    "  --sessions DIR      Session logs recorded by stretto-proxy (required unless --results).",
    "  --otel FILE         OpenTelemetry spans (OTLP/JSON) instead of --sessions (needs",
    "                      --manifest; docs/otel.md).",
    "  --results FILE      A τ²-bench results.json (repeatable) instead of --sessions: its",
    "                      simulations of the domain as sessions, with their rewards.",
    "  --tau2 DIR          With --results: the tools, from the checkout's",
    "                      src/tau2/domains/DOMAIN/tools.py.",
    "  --domain NAME       The flow's domain, when there is no committed flow yet.",
    "  --manifest FILE     The tool manifest instead of the tools the servers listed (or",
    "                      --tau2's).",
    "  --rewards FILE      JSON {session id: reward in [0, 1]}; others count as 1 (not with",
    "                      --results).",
    "  --constants         Also learn arguments the agent always passed with one value.",
    "  --half-life H       Weigh a session by 0.5^(age/H).",
    "  --window N          How many of the latest sessions the report compares (default 50).",
    "  --decider NAME      Score both flows with this decider (default: each one's served one).",
    "  --threshold P       The threshold the flows are scored and reviewed at (default 0.3).",
    `  --per-call N        The most lookups after one call (default ${PER_CALL}).`,
    "  --oracle KIND       The System-One model an arbiter asks: replay (default), jev or mock.",
    `  --oracle-cache DIR  Its cache (default ${ORACLE_CACHE}).`,
    "  --out FILE          Write the report (Markdown) there instead of stdout.",
    "  --json FILE         Also write the comparison as JSON there.",
    "  --strict            Fail on a file in DIR that is no session log.",
    QUIET_HELP,
  ].join("\n"),
  valueOptions: ["--flow", "--sessions", "--otel", "--results", "--tau2", "--domain", "--manifest", "--rewards", "--half-life", "--window", "--decider", "--threshold", "--per-call", "--oracle", "--oracle-cache", "--out", "--json"],
  flagOptions: ["--constants", STRICT_FLAG, QUIET_FLAG],
  run: (args, io) => stageRun(args, io),
};

function positive(args: ParsedArgs, name: string, fallback: number, whole: boolean): number {
  const raw = args.options.get(name);
  if (raw === undefined) return fallback;
  const x = Number(raw);
  if (raw.trim() === "" || !(x > 0) || !Number.isFinite(x) || (whole && !Number.isInteger(x))) throw new UsageError(`${name} needs ${whole ? "a whole number above 0" : "a number above 0"}, not ${raw}`, USAGE);
  return x;
}

/** `--results` takes its rewards and sessions from the results files, so it stands alone. */
function checkSources(args: ParsedArgs): void {
  const results = args.lists.has("--results");
  const given = (o: string) => args.lists.has(o);
  if (results) {
    const clash = ["--sessions", "--otel", "--rewards"].find(given);
    if (clash !== undefined) throw new UsageError(`the argument '--results <FILE>' cannot be used with '${clash} <${clash === "--sessions" ? "DIR" : "FILE"}>'`, USAGE);
  } else {
    if (given("--tau2")) throw new UsageError("--tau2 reads the tools of --results: pass --results too", USAGE);
    if (given("--otel") && given("--sessions")) throw new UsageError("the argument '--otel <FILE>' cannot be used with '--sessions <DIR>'", USAGE);
    if (given("--otel") && !given("--manifest")) throw new UsageError("--otel needs --manifest FILE: spans do not say which tools read", USAGE);
    if (!given("--sessions") && !given("--otel")) throw new UsageError("--sessions DIR (or --otel FILE, or --results FILE) is required", USAGE);
  }
  if ((args.lists.get("--sessions") ?? []).length > 1) throw new UsageError("stage learns from one --sessions DIR", USAGE);
}

function stageRun(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`stage takes no positional arguments, not ${args.positionals.join(" ")}`, USAGE);
  const flowPath = args.options.get("--flow");
  if (flowPath === undefined) throw new UsageError("--flow FILE is required", USAGE);
  checkSources(args);
  const window = positive(args, "--window", 50, true);
  const threshold = positive(args, "--threshold", 0.3, false);
  const perCall = positive(args, "--per-call", PER_CALL, true);
  const halfLife = args.options.has("--half-life") ? positive(args, "--half-life", 1, false) : undefined;
  const named = args.options.get("--decider");
  if (named !== undefined && !(DECIDERS as readonly string[]).includes(named)) throw new UsageError(`--decider is arbiter, habit or reach, not ${named}`, USAGE);
  const kind = args.options.get("--oracle") ?? "replay";
  if (!isOracleKind(kind)) throw new UsageError(`--oracle is jev, replay or mock, not ${kind}`, USAGE);
  return staging(io, async () => {
    const paths = stagePaths(flowPath);
    const made = makeOracle({ kind, cache: args.options.get("--oracle-cache") ?? ORACLE_CACHE });
    const rewardsPath = args.options.get("--rewards");
    const manifestPath = args.options.get("--manifest");
    const tau2 = args.options.get("--tau2");
    try {
      if (args.lists.has("--results") && tau2 === undefined && manifestPath === undefined) throw new StageRefusal("--results needs --tau2, for the tools, or --manifest");
      const rewards = rewardsPath === undefined ? undefined : await readRewards(rewardsPath);
      const given = manifestPath === undefined ? undefined : await readManifestFile(manifestPath);
      // The stream is read once the domain is known (the committed flow's, or --domain).
      let source: EpisodeSource | undefined;
      const sourceOf = async (domain: string) => (source ??= await episodeSource(io, args, domain, USAGE, { split: false }));
      const domainGiven = args.options.get("--domain");
      const result = await stage({
        paths,
        ...(domainGiven === undefined ? {} : { domain: domainGiven }),
        sessions: async function* (domain) {
          yield* (await sourceOf(domain)).sessions();
        },
        relearn: async (domain, gate) => {
          const from = await sourceOf(domain);
          const manifest = given ?? (tau2 === undefined ? undefined : await tau2Manifest(tau2, domain));
          const read = await learnedSessions(from);
          const options: SessionsOptions = {
            domain,
            // Results carry each simulation's reward.
            ...(from.results.length > 0 ? { rewards: new Map(from.results.map((ep) => [ep.id, ep.reward])) } : rewards === undefined ? {} : { rewards }),
            agentOnly: false,
            ...(manifest === undefined ? {} : { manifest }),
            constants: args.flags.has("--constants"),
            ...(halfLife === undefined ? {} : { halfLife }),
            version: VERSION,
            nowMs: Date.now(),
          };
          let flow = learnFromSessions(read, options);
          if (from.otel.length > 0) flow = { ...flow, provenance: { ...flow.provenance, conventions: OTEL_CONVENTIONS } };
          return gate === undefined ? flow : { ...flow, surprise: learnGate(learnInput(read, options), gate.quantile, gate.window) };
        },
        ...(named === undefined ? {} : { decider: named as DeciderName }),
        oracle: made.oracle,
        window,
        threshold,
        perCall,
      });
      const c = result.comparison;
      await writeReports(io, args, stageMarkdown(c, flowPath), c);
      say(io, `the staged ${c.domain} flow has learned from ${c.sessions} sessions, ${c.new} of them new, and is at ${paths.staged}`);
      return undefined;
    } catch (e) {
      if (e instanceof LearnError || e instanceof ReportWriteError || e instanceof LogReadError) {
        say(io, e.message);
        throw new StageFailed();
      }
      throw e;
    }
  }).catch((e: unknown) => {
    if (e instanceof StageFailed) return 1;
    throw e;
  });
}

/**
 * What the learner reads of the source: the folder's sessions with their listings and
 * contracts, or episodes read whole (results, spans), which list no tools.
 */
async function learnedSessions(source: EpisodeSource): Promise<FolderSessions> {
  const [folder] = source.folders;
  if (folder !== undefined) return readFolderSessions(folder);
  return wholeSessions([...source.results, ...source.otel]);
}

/** A failure already said on stderr. */
class StageFailed extends Error {}
