/** `stretto flow-rollback --flow FILE [--to N] [--note TEXT]`: an earlier version becomes the committed flow again (docs/staging.md). */
import { flowRollback, recordMarkdown } from "../../stage/index.js";
import { say, UsageError, type Command, type Io, type ParsedArgs } from "./command.js";
import { flowOption, staging } from "./flow-commit.js";

const USAGE = "stretto flow-rollback --flow FILE [--to N] [--note TEXT]";

export const flowRollbackCommand: Command = {
  name: "flow-rollback",
  usage: USAGE,
  summary: "Roll the committed flow FILE back to an earlier version (kept as a new version).",
  help: [
    "Rewrites the committed flow FILE (NAME.flow.json) with version N of NAME.history/,",
    "written whole, and keeps it as a new version recording the rollback. By default N is",
    "the version before the latest, or the latest itself when FILE has changed since by other",
    "means (then FILE is first kept as a version found in place).",
    "",
    "  --flow FILE   The committed flow, NAME.flow.json (required).",
    "  --to N        The version to restore.",
    "  --note TEXT   Why, kept in the version's record.",
  ].join("\n"),
  valueOptions: ["--flow", "--to", "--note"],
  run: (args, io) => rollback(args, io),
};

function rollback(args: ParsedArgs, io: Io): Promise<number> {
  const flow = flowOption(args, USAGE);
  const raw = args.options.get("--to");
  if (raw !== undefined && !/^[1-9]\d*$/.test(raw)) throw new UsageError(`--to needs a version number (1 or more), not ${raw}`, USAGE);
  return staging(io, () => {
    const record = flowRollback(flow, raw === undefined ? undefined : Number(raw), args.options.get("--note"), Date.now());
    say(io, `rolled ${flow} back to version ${record.restored ?? 0}, as version ${record.version}`);
    return Promise.resolve(recordMarkdown(record, true));
  });
}
