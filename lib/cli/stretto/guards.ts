/**
 * `stretto guards --sessions DIR --domain D [--tau2-results FILE] [--json FILE] [--out FILE]`
 * (docs/guards.md, "Testing the rules offline"): the policy guards against recorded sessions. Every call of every
 * episode is checked against what came before its turn, as `stretto-proxy --guards`
 * checks it, and counted by rule and verdict: writes the tool accepted in successful
 * episodes, in failed ones, and writes the tool refused. A log does not know whether its
 * task succeeded, so its episodes count as failed; a τ²-bench results file does.
 */
import { LogReadError, folderEpisodes, unqualified } from "../../trace/index.js";
import { Auditor, auditJson, auditMarkdown, guardsSetupError, rulesFor } from "../../guards/index.js";
import { EXIT_OK, EXIT_UNREADABLE, UsageError, checkHelpLine, parseArgs, say, type Command, type Io } from "./command.js";
import { STRICT_FLAG, STRICT_HELP, planWithProgress } from "./folder-report.js";
import { QUIET_FLAG, QUIET_HELP, quiet } from "./progress.js";
import { ReportWriteError, writeReportTexts } from "./report-files.js";
import { readTau2Results } from "./tau2-results.js";

export const guardsCommand: Command = {
  name: "guards",
  usage: "stretto guards --domain NAME (--sessions DIR | --tau2-results FILE)... [--json FILE] [--out FILE]",
  summary: "Test the policy guards against recorded sessions (Markdown).",
  help: [
    "Checks every write of every session against what came before it, as",
    "stretto-proxy --guards --domain NAME would, and counts each rule's verdicts (pass,",
    "fail, unknown) on the writes the tool accepted in successful episodes, in failed",
    "episodes, and on the writes the tool refused. A failure on an accepted write of a",
    "successful episode is a false alarm, or policy the episode broke and passed anyway.",
    "A log does not know whether its task succeeded: its episodes count as failed.",
    "",
    "  --domain NAME        retail or airline.",
    "  --sessions DIR       Session logs recorded by stretto-proxy (merged across servers",
    "                       as stretto episodes merges them).",
    "  --tau2-results FILE  A τ²-bench results.json (simulations with their rewards);",
    "                       a file of another domain is skipped.",
    "  --json FILE          Also write the audit as JSON.",
    "  --out FILE           Write the Markdown report there instead of stdout.",
    "  --strict             Fail (exit 1) on the first file in --sessions that is no",
    "                       session log, instead of skipping it.",
    QUIET_HELP,
    "",
    ...STRICT_HELP,
  ].join("\n"),
  valueOptions: ["--domain", "--sessions", "--tau2-results", "--json", "--out"],
  flagOptions: [STRICT_FLAG, QUIET_FLAG],
  run: (args, io) => audit(args.options, io, args.flags.has(STRICT_FLAG), quiet(args)),
};

/** `stretto guards` with its arguments (those after `guards`), on the process's streams unless given. */
export async function run(argv: readonly string[], io: Io = processIo()): Promise<number> {
  try {
    if (argv.includes("-h") || argv.includes("--help")) {
      checkHelpLine(guardsCommand, argv);
      io.stdout.write(`${guardsCommand.summary}\n\nUsage: ${guardsCommand.usage}\n\n${guardsCommand.help}\n`);
      return EXIT_OK;
    }
    return await guardsCommand.run(parseArgs(guardsCommand, argv), io);
  } catch (e) {
    if (e instanceof UsageError) {
      say(io, e.message);
      io.stderr.write(`Usage: ${e.usage}\n`);
      return 2;
    }
    if (e instanceof LogReadError) {
      say(io, e.message);
      return EXIT_UNREADABLE;
    }
    throw e;
  }
}

async function audit(options: ReadonlyMap<string, string>, io: Io, strict: boolean, quietly: boolean): Promise<number> {
  const usage = guardsCommand.usage;
  const domain = options.get("--domain");
  if (domain === undefined) throw new UsageError("guards needs --domain (retail or airline)", usage);
  const error = guardsSetupError(domain);
  if (error !== undefined) throw new UsageError(error, usage);
  const sessions = options.get("--sessions");
  const results = options.get("--tau2-results");
  if (sessions === undefined && results === undefined) throw new UsageError("guards needs --sessions DIR or --tau2-results FILE", usage);

  const auditor = new Auditor(domain, rulesFor(domain)!, unqualified);
  if (sessions !== undefined) {
    const { folder, progress } = await planWithProgress(io, sessions, strict, quietly);
    for await (const ep of folderEpisodes(folder, (done, total) => progress.update("auditing sessions", done, total))) {
      auditor.add(ep);
    }
    progress.done();
  }
  if (results !== undefined) {
    const read = await readTau2Results(results);
    if (read.domain !== domain) say(io, `skipped ${results}: its domain is ${read.domain || "not named"}, not ${domain}`);
    else for (const ep of read.episodes) auditor.add(ep);
  }
  const audits = [auditor.finish()];

  try {
    await writeReportTexts(io, options, auditMarkdown(audits), auditJson(audits));
  } catch (e) {
    if (!(e instanceof ReportWriteError)) throw e;
    say(io, e.message);
    return EXIT_UNREADABLE;
  }
  return EXIT_OK;
}

function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, stderrIsTty: process.stderr.isTTY === true };
}
