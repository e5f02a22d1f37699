/**
 * `stretto flow-commit --flow FILE [--note TEXT]`: the staged flow becomes the committed one,
 * kept as a version (docs/staging.md).
 */
import { flowCommit, recordMarkdown, StageError, StageRefusal } from "../../stage/index.js";
import { EXIT_OK, EXIT_UNREADABLE, say, TextOut, UsageError, type Command, type Io, type ParsedArgs } from "./command.js";

const USAGE = "stretto flow-commit --flow FILE [--note TEXT]";

export const flowCommitCommand: Command = {
  name: "flow-commit",
  usage: USAGE,
  summary: "Commit the staged flow beside FILE: it replaces FILE, and each version is kept.",
  help: [
    "Replaces the committed flow FILE (NAME.flow.json) with the staged flow beside it",
    "(NAME.staged.flow.json, learned by stretto stage), written whole (a temporary file",
    "renamed into place), and keeps it as a new version in NAME.history/ with a record of",
    "what changed. A committed flow changed by other means since its last version is kept",
    "first, as a version found in place. Prints the new version's entry of stretto flow-log.",
    "",
    "  --flow FILE   The committed flow, NAME.flow.json (required).",
    "  --note TEXT   Why, kept in the version's record.",
  ].join("\n"),
  valueOptions: ["--flow", "--note"],
  run: (args, io) => commit(args, io),
};

export function flowOption(args: ParsedArgs, usage: string): string {
  if (args.positionals.length > 0) throw new UsageError(`no positional arguments, not ${args.positionals.join(" ")}`, usage);
  const flow = args.options.get("--flow");
  if (flow === undefined) throw new UsageError("--flow FILE is required", usage);
  return flow;
}

/** Runs a stage step: a refusal or a file that cannot be read or written is one line on stderr, exit 1. */
export async function staging(io: Io, step: () => Promise<string | undefined>): Promise<number> {
  try {
    const text = await step();
    if (text !== undefined) {
      const out = new TextOut(io.stdout);
      await out.write(text);
      await out.flush();
    }
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof StageRefusal || e instanceof StageError)) throw e;
    say(io, e.message);
    return EXIT_UNREADABLE;
  }
}

function commit(args: ParsedArgs, io: Io): Promise<number> {
  const flow = flowOption(args, USAGE);
  return staging(io, () => {
    const record = flowCommit(flow, args.options.get("--note"), Date.now());
    say(io, `committed the staged flow as version ${record.version} of ${flow}`);
    return Promise.resolve(recordMarkdown(record, true));
  });
}
