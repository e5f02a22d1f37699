/**
 * `stretto learn --sessions DIR --domain NAME --out FILE --habit-only` (facts-flows §5.1):
 * a flow from recorded sessions. Logs are merged across servers as `stretto episodes`
 * merges them; the manifest and contracts come from the servers' listings (or
 * `--manifest`); every session is a success unless `--rewards` says otherwise.
 */
import { writeFile } from "node:fs/promises";
import { LearnError, learnFromSessions, readFolderSessions } from "../../learn/index.js";
import { flowText } from "../../flow/ir/index.js";
import { osErrorText } from "../../util/os-errors.js";
import { VERSION } from "../../version.js";
import { EXIT_OK, EXIT_UNREADABLE, UsageError, say, type Command, type Io, type ParsedArgs } from "./command.js";
import { STRICT_FLAG, planWithProgress } from "./folder-report.js";
import { QUIET_FLAG, QUIET_HELP, quiet } from "./progress.js";
import { readManifestFile, readRewards } from "./learn-inputs.js";

const USAGE = "stretto learn --sessions DIR --domain NAME --out FILE --habit-only [options]";

export const ARBITER_NOT_BUILT =
  "learning an arbiter (without --habit-only) is not built yet: pass --habit-only to learn the habit, reach and bindings";

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
    "  --sessions DIR    Session logs recorded with stretto-proxy --record.",
    "  --domain NAME     The flow's domain (its manifest's and episodes').",
    "  --out FILE        Where to write the flow.",
    "  --habit-only      Learn no arbiter (no System-One model is asked anything).",
    "  --manifest FILE   The tool manifest (as stretto manifest prints it) instead of the",
    "                    tools the sessions' servers listed.",
    "  --rewards FILE    JSON {session id: reward in [0, 1]}; a session not listed has",
    "                    reward 1. Only sessions with reward 1 are learned from.",
    "  --constants       Also learn arguments the agent always passed with one value.",
    "  --half-life H     Weigh a session by 0.5^(age/H), age counting the sessions after it.",
    "  --agent-only      Learn from the agent's own calls only: leave out the lookups a",
    "                    flow made in sessions it served (stretto-* calls). By default they",
    "                    count, as calls the agent would have made.",
    "  --strict          Fail (exit 1) on the first file in DIR that is no session log.",
    QUIET_HELP,
  ].join("\n"),
  valueOptions: ["--sessions", "--domain", "--out", "--manifest", "--rewards", "--half-life"],
  flagOptions: ["--habit-only", "--constants", "--agent-only", STRICT_FLAG, QUIET_FLAG],
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

async function learn(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`learn takes no positional arguments, not ${args.positionals.join(" ")}`, USAGE);
  const dir = required(args, "--sessions");
  const domain = required(args, "--domain");
  const out = required(args, "--out");
  const h = halfLife(args);
  if (!args.flags.has("--habit-only")) {
    say(io, ARBITER_NOT_BUILT);
    return EXIT_UNREADABLE;
  }
  try {
    const rewardsPath = args.options.get("--rewards");
    const rewards = rewardsPath === undefined ? undefined : await readRewards(rewardsPath);
    const manifestPath = args.options.get("--manifest");
    const given = manifestPath === undefined ? undefined : await readManifestFile(manifestPath);
    const { folder, progress } = await planWithProgress(io, dir, args.flags.has(STRICT_FLAG), quiet(args));
    const read = await readFolderSessions(folder, (done, total) => progress.update("reading sessions", done, total));
    progress.done();
    const flow = learnFromSessions(read, {
      domain,
      ...(rewards === undefined ? {} : { rewards }),
      agentOnly: args.flags.has("--agent-only"),
      ...(given === undefined ? {} : { manifest: given }),
      constants: args.flags.has("--constants"),
      ...(h === undefined ? {} : { halfLife: h }),
      version: VERSION,
      nowMs: Date.now(),
    });
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
