/**
 * `stretto redact --sessions DIR --out DIR [--salt-env VAR] [--keep-shared N] [--hash-field NAME]...`
 * (docs/redact.md): a pseudonymized copy of recorded sessions, to share or to learn from
 * elsewhere. The recorded logs are only read: --out must be a folder of its own.
 */
import { readdirSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { KEEP_SHARED, SharedSessionId, redactFolder, type LogToRedact, type RedactOptions } from "../../redact/index.js";
import { LogReadError, planFolder, type SkippedLog } from "../../trace/index.js";
import { osErrorText } from "../../util/os-errors.js";
import { EXIT_OK, EXIT_UNREADABLE, UsageError, say, type Command, type Io, type ParsedArgs } from "./command.js";
import { STRICT_FLAG, STRICT_HELP } from "./folder-report.js";
import { PROGRESS_MIN_LOGS, ProgressLine, QUIET_FLAG, quiet } from "./progress.js";

const SALT_ENV = "STRETTO_REDACT_SALT";

export const redactCommand: Command = {
  name: "redact",
  usage: "stretto redact [OPTIONS] --sessions <DIR> --out <DIR>",
  summary: "Write a pseudonymized copy of recorded sessions (values few sessions share hashed).",
  help: [
    "Copies every session log in --sessions into --out with each value fewer than",
    "--keep-shared sessions share replaced by h_ and 12 hex digits of a salted SHA-256:",
    "the arguments and results of every tool call (the agent's and the proxy's own), the",
    "proxy's refusals, commit reports and appended lookups, the conversation, the server's",
    "notifications and error texts. A value gets the same hash wherever it appears, so a flow",
    "learned from the copy is the one learned from the originals. Tool names, the names and",
    "enum values the tools' schemas declare, initialize, tools/list, times and the header are",
    "kept. Flow and confirmation logs are not copied: they are not redacted.",
    "",
    `  --sessions DIR     The session logs (not its subfolders); only read.`,
    `  --out DIR          Where the copies go, one <session>.jsonl each (made 0700, files 0600);`,
    `                     a folder apart from --sessions.`,
    `  --salt-env VAR     The environment variable holding the secret salt [default: ${SALT_ENV}].`,
    `  --keep-shared N    Keep values at least N sessions share [default: ${KEEP_SHARED}].`,
    "  --hash-field NAME  Always hash the values of this field (a JSON key, at any depth), and",
    "                     each word of them, however many sessions share them. Repeatable or",
    "                     comma-separated: --hash-field user_id,email,name.",
    "  --strict           Fail (exit 1) on the first file that is no session log, instead of",
    "                     skipping it.",
    `  --quiet            Show no progress (shown on stderr for ${PROGRESS_MIN_LOGS} logs or more).`,
    "",
    ...STRICT_HELP,
  ].join("\n"),
  valueOptions: ["--sessions", "--out", "--salt-env", "--keep-shared", "--hash-field"],
  flagOptions: [STRICT_FLAG, QUIET_FLAG],
  run: (args, io) => redact(args, io),
};

async function redact(args: ParsedArgs, io: Io): Promise<number> {
  const { options, lists, flags } = args;
  const usage = redactCommand.usage;
  const sessions = options.get("--sessions");
  if (sessions === undefined) throw new UsageError("redact needs --sessions DIR", usage);
  const out = options.get("--out");
  if (out === undefined) throw new UsageError("redact needs --out DIR", usage);
  const keepShared = wholeNumber(options.get("--keep-shared"), usage);
  const hashFields = (lists.get("--hash-field") ?? []).flatMap((f) => f.split(",")).filter((f) => f.trim() !== "");
  const saltEnv = options.get("--salt-env") ?? SALT_ENV;
  const salt = process.env[saltEnv] ?? "";
  if (salt === "") return fail(io, `set ${saltEnv} to a secret salt: without one, anyone could hash guesses and match them`);
  const apart = outApart(sessions, out);
  if (apart !== undefined) return fail(io, apart);

  const progress = new ProgressLine(io, { quiet: quiet(args) });
  const skip = (s: SkippedLog): void => {
    progress.done();
    say(io, `skipped ${s.path}: ${s.reason}`);
  };
  const folder = await planFolder(
    sessions,
    (done, total) => {
      if (done === 1) progress.start(total);
      progress.update("scanning logs", done, total);
    },
    flags.has(STRICT_FLAG) ? undefined : skip,
    { sync: true },
  );
  progress.done();
  if (folder.paths.length === 0) return fail(io, `no session logs in ${sessions}`);

  const logs: LogToRedact[] = folder.paths.map((path, i) => ({ path, session: folder.summaries[i]!.header.session }));
  // A host session's logs across servers are counted as the one session they merge into.
  for (const s of folder.plan.sessions) {
    if (s.kind === "merged") for (const part of s.parts) logs[part.index]!.countedAs = `${s.session}\0merged`;
  }
  const redaction: RedactOptions = { salt, keepShared, hashFields };
  try {
    await redactFolder(logs, out, redaction, (pass, done, total) => progress.update(`${pass} sessions`, done, total));
  } catch (e) {
    progress.done();
    if (e instanceof SharedSessionId) return fail(io, `two logs in ${sessions} share the session id ${e.session}`);
    if (e instanceof LogReadError) throw e;
    return fail(io, `writing into ${out}: ${osErrorText(e)}`);
  }
  progress.done();
  const side = sideLogs(sessions);
  if (side > 0) say(io, `left out ${side} flow and confirmation log${side === 1 ? "" : "s"}: they are not redacted, so they are not copied`);
  say(io, `redacted ${logs.length} sessions into ${out}; values fewer than ${keepShared} of them share are hashed`);
  return EXIT_OK;
}

function wholeNumber(text: string | undefined, usage: string): number {
  if (text === undefined) return KEEP_SHARED;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--keep-shared takes a whole number, not '${text}'`, usage);
  }
  return Number(text);
}

/**
 * Why `out` cannot take the copies, if it cannot: it is the sessions' folder, or inside it
 * (copies beside the recorded logs would be shared, or deleted, with them). Links are followed,
 * and a part of `out` not made yet is placed where it will be made.
 */
function outApart(sessions: string, out: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(sessions);
  } catch {
    return undefined; // reading the folder says what is wrong with it
  }
  const target = wouldBe(resolve(out));
  if (target === real) return "--out must be another directory: redact leaves the originals as they are";
  if (target.startsWith(real.endsWith(sep) ? real : real + sep)) {
    return "--out must not be inside --sessions: redact leaves the originals as they are";
  }
  return undefined;
}

/** Where `path` is once its links are followed, for the part of it that exists. */
function wouldBe(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(wouldBe(parent), basename(path));
  }
}

/** How many flow and confirmation logs lie beside the sessions. */
function sideLogs(dir: string): number {
  try {
    return readdirSync(dir).filter((n) => n.endsWith(".flow.jsonl") || n.endsWith(".confirm.jsonl")).length;
  } catch {
    return 0;
  }
}

function fail(io: Io, message: string): number {
  say(io, message);
  return EXIT_UNREADABLE;
}
