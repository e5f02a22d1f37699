/**
 * `stretto learn --sessions DIR --domain NAME --out FILE [--habit-only]`: a flow from
 * recorded sessions. Logs are merged across servers as `stretto episodes` merges them; the
 * manifest and contracts come from the servers' listings (or `--manifest`); every session
 * is a success unless `--rewards` says otherwise. Without `--habit-only` the flow also gets
 * an arbiter, fitted on the System-One model's answers at the held-out tasks' decisions
 * (`--oracle`, `--oracle-cache` as stretto-proxy takes them), or taken from `--arbiter-from`.
 */
import { writeFile } from "node:fs/promises";
import { LearnError, learnFromSessionsThreaded, learnInput, readFolderSessions, type EpisodeReading, type FolderSessions, type SessionsOptions } from "../../learn/index.js";
import { LogReadError } from "../../trace/index.js";
import { OTEL_CONVENTIONS, readOtelEpisodes } from "../../trace/otel/index.js";
import type { Episode } from "../../trace/episode-types.js";
import { learnArbiterFlow, readArbiter, type ArbiterSettings } from "../../learn/arbiter/index.js";
import { DEFAULT_ORACLE_CACHE, isOracleKind, makeOracle } from "../../oracle/make-oracle.js";
import { defaultModel, type OracleKind } from "../../oracle/oracle.js";
import { flowText } from "../../flow/ir/index.js";
import { osErrorText } from "../../util/os-errors.js";
import { VERSION } from "../../version.js";
import { EXIT_OK, EXIT_UNREADABLE, UsageError, say, type Command, type Io, type ParsedArgs } from "./command.js";
import { STRICT_FLAG, planWithProgress } from "./folder-report.js";
import { ProgressLine, QUIET_FLAG, QUIET_HELP, quiet } from "./progress.js";
import { readManifestFile, readRewards } from "./learn-inputs.js";
import { gateOptions, GATE_HELP, GATE_OPTIONS, withLearnedGate } from "./surprise-option.js";
import { wholeSessions } from "./whole-sessions.js";

const USAGE = "stretto learn (--sessions DIR | --otel FILE --manifest FILE) --domain NAME --out FILE [--habit-only] [options]";

/** The options that shape an arbiter, which `--habit-only` does not learn. */
const ARBITER_OPTIONS = ["--oracle", "--oracle-cache", "--arbiter-from"];

export const learnCommand: Command = {
  name: "learn",
  usage: USAGE,
  summary: "Learn a flow from recorded sessions (JSON flow file).",
  help: [
    "Reads every session log in DIR (merged across servers as stretto episodes merges",
    "them), and learns from the successful sessions what the agent looks up after each",
    "call: the habit (a back-off model over the calls and their outcomes), reach (what",
    "comes before the next write), the sites where a read followed, and how each lookup's",
    "arguments are bound from earlier results. Writes the flow to FILE as one JSON line,",
    "ready for stretto-proxy --flow FILE.",
    "",
    "Without --habit-only the flow also gets an arbiter: 30% of the tasks are held out",
    "(a session is its own task), the rest train the habit, and at every decision of the",
    "held-out sessions the System-One model is asked what the agent does next, as the",
    "proxy would ask it; the arbiter is fitted on its answers against what the agent did.",
    "",
    "  --sessions DIR    Session logs recorded with stretto-proxy --record.",
    "  --otel FILE       OpenTelemetry spans (OTLP/JSON, GenAI and MCP conventions) instead",
    "                    of --sessions: each conversation or trace is a session. Needs",
    "                    --manifest (spans do not say which tools read). See docs/otel.md.",
    "  --domain NAME     The flow's domain (its manifest's and episodes').",
    "  --out FILE        Where to write the flow.",
    "  --habit-only      Learn no arbiter (no System-One model is asked anything).",
    "  --oracle KIND     The System-One model the arbiter asks: jev (default), replay (the",
    "                    cache alone) or mock (no key, for tests).",
    `  --oracle-cache DIR  Its answers' cache (default ${DEFAULT_ORACLE_CACHE}), the proxy's.`,
    "  --refit-habit     Once the arbiter is fitted, learn the habit, reach, sites and",
    "                    bindings again from every session, held-out ones included.",
    "  --arbiter-from FILE  Take the arbiter from FILE (an arbiter file or another flow)",
    "                    instead of fitting one: nothing is held out or asked.",
    "  --manifest FILE   The tool manifest (as stretto manifest prints it) instead of the",
    "                    tools the sessions' servers listed.",
    "  --rewards FILE    JSON {session id: reward in [0, 1]}; a session not listed has",
    "                    reward 1. Only sessions with reward 1 are learned from.",
    "  --constants       Also learn arguments the agent always passed with one value.",
    "  --half-life H     Weigh a session by 0.5^(age/H), age counting the sessions after it.",
    "  --agent-only      Learn from the agent's own calls only: leave out the lookups a",
    "                    flow made in sessions it served (stretto-* calls). By default they",
    "                    count, as calls the agent would have made.",
    ...GATE_HELP,
    "  --strict          Fail (exit 1) on the first file in DIR that is no session log.",
    QUIET_HELP,
  ].join("\n"),
  valueOptions: ["--sessions", "--otel", "--domain", "--out", "--manifest", "--rewards", "--half-life", ...ARBITER_OPTIONS, ...GATE_OPTIONS],
  flagOptions: ["--habit-only", "--refit-habit", "--constants", "--agent-only", STRICT_FLAG, QUIET_FLAG],
  run: (args, io) => learn(args, io),
};

function required(args: ParsedArgs, name: string): string {
  const v = args.options.get(name);
  if (v === undefined) throw new UsageError(`learn needs ${name}`, USAGE);
  return v;
}

function halfLife(args: ParsedArgs): number | undefined {
  const text = args.options.get("--half-life");
  if (text === undefined) return undefined;
  const h = Number(text);
  if (text.trim() === "" || !Number.isFinite(h) || h <= 0) throw new UsageError("--half-life must be a positive number of sessions", USAGE);
  return h;
}

/**
 * What the arbiter is learned with: the file `--arbiter-from` names, or the oracle the
 * proxy would build from the same `--oracle` and `--oracle-cache`, asking the default model.
 */
function arbiterSettings(args: ParsedArgs, io: Io, kind: OracleKind): ArbiterSettings {
  const refitHabit = args.flags.has("--refit-habit");
  const from = args.options.get("--arbiter-from");
  if (from !== undefined) {
    const arbiter = readArbiter(from);
    return { model: arbiter.model, refitHabit, from: arbiter };
  }
  const cache = args.options.get("--oracle-cache");
  const made = makeOracle({ kind, ...(cache === undefined ? {} : { cache }) });
  if (made.notice !== undefined) say(io, made.notice);
  const progress = new ProgressLine(io, { quiet: quiet(args) });
  let started = false;
  return {
    model: defaultModel(),
    oracle: made.oracle,
    refitHabit,
    progress: (done, total) => {
      if (!started) progress.start(total);
      started = true;
      progress.update("asking the System-One model", done, total);
      if (done === total) progress.done();
    },
  };
}

/** The spans' episodes; a file that cannot be read is the learner's error. */
async function readOtelFile(path: string, domain: string): Promise<Episode[]> {
  try {
    return await readOtelEpisodes(path, domain);
  } catch (e) {
    if (e instanceof LogReadError) throw new LearnError(e.message);
    throw e;
  }
}

/**
 * The folder planned and its sessions read, in a function of its own: the plan (a summary
 * of every log, megabytes with many sessions) is then let go when the reading ends. Held
 * in `learn`'s frame, which stays suspended through the learning, it stayed alive there.
 */
async function readSessionsFolder(io: Io, dir: string, strict: boolean, beQuiet: boolean, firstPass: EpisodeReading | undefined): Promise<FolderSessions> {
  const { folder, progress } = await planWithProgress(io, dir, strict, beQuiet);
  const read = await readFolderSessions(folder, (done, total) => progress.update("reading sessions", done, total), { firstPass });
  progress.done();
  return read;
}

async function learn(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`learn takes no positional arguments, not ${args.positionals.join(" ")}`, USAGE);
  const otelPath = args.options.get("--otel");
  if (otelPath !== undefined && args.options.has("--sessions")) throw new UsageError("the argument '--otel <FILE>' cannot be used with '--sessions <DIR>'", USAGE);
  if (otelPath !== undefined && !args.options.has("--manifest")) throw new UsageError("--otel needs --manifest FILE: spans do not say which tools read", USAGE);
  const dir = otelPath === undefined ? required(args, "--sessions") : undefined;
  const domain = required(args, "--domain");
  const out = required(args, "--out");
  const h = halfLife(args);
  const gate = gateOptions(args, USAGE);
  const habitOnly = args.flags.has("--habit-only");
  if (habitOnly) {
    const given = [...ARBITER_OPTIONS, "--refit-habit"].find((o) => args.options.has(o) || args.flags.has(o));
    if (given !== undefined) throw new UsageError(`--habit-only learns no arbiter, so it takes no ${given}`, USAGE);
  }
  const kind = args.options.get("--oracle") ?? "jev";
  if (!isOracleKind(kind)) throw new UsageError(`--oracle is jev, replay or mock, not ${kind}`, USAGE);
  try {
    // The arbiter's file or oracle first, so a file that gives no arbiter fails before the folder is read.
    const arbiter = habitOnly ? undefined : arbiterSettings(args, io, kind);
    const rewardsPath = args.options.get("--rewards");
    const rewards = rewardsPath === undefined ? undefined : await readRewards(rewardsPath);
    const manifestPath = args.options.get("--manifest");
    const given = manifestPath === undefined ? undefined : await readManifestFile(manifestPath);
    let read: FolderSessions;
    if (dir !== undefined) {
      // A habit learned in passes makes its first pass as the sessions are read.
      const firstPass = habitOnly ? { domain, rewards, agentOnly: args.flags.has("--agent-only") } : undefined;
      read = await readSessionsFolder(io, dir, args.flags.has(STRICT_FLAG), quiet(args), firstPass);
    } else {
      read = wholeSessions(await readOtelFile(otelPath!, domain));
    }
    const options: SessionsOptions = {
      domain,
      ...(rewards === undefined ? {} : { rewards }),
      agentOnly: args.flags.has("--agent-only"),
      ...(given === undefined ? {} : { manifest: given }),
      constants: args.flags.has("--constants"),
      ...(h === undefined ? {} : { halfLife: h }),
      version: VERSION,
      nowMs: Date.now(),
    };
    // The habit alone is learned in passes over the compressed sessions; the arbiter's split needs them all at hand.
    let flow = arbiter === undefined ? await learnFromSessionsThreaded(read, options) : await learnArbiterFlow(learnInput(read, options), arbiter);
    if (gate !== undefined) flow = withLearnedGate(flow, learnInput(read, options), gate, (m) => say(io, m));
    if (otelPath !== undefined) flow = { ...flow, provenance: { ...flow.provenance, conventions: OTEL_CONVENTIONS } };
    try {
      await writeFile(out, flowText(flow));
    } catch (e) {
      throw new LearnError(`writing ${out}: ${osErrorText(e)}`);
    }
    say(io, `learned the ${domain} flow from ${read.episodes.length} sessions (${flow.vocab.length - 1} tools) and wrote ${out}`);
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof LearnError)) throw e;
    say(io, e.message);
    return EXIT_UNREADABLE;
  }
}
