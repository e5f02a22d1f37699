/** `stretto flow-log --flow FILE`: every version of the committed flow, latest first (docs/staging.md). */
import { flowLog } from "../../stage/index.js";
import type { Command, Io, ParsedArgs } from "./command.js";
import { flowOption, staging } from "./flow-commit.js";

const USAGE = "stretto flow-log --flow FILE";

export const flowLogCommand: Command = {
  name: "flow-log",
  usage: USAGE,
  summary: "List the committed flow's versions: what each was, when, and what changed.",
  help: [
    "Prints (Markdown) each version kept in NAME.history/ beside the committed flow FILE,",
    "latest first: found in place, committed or rolled back to, when (UTC), its note, what",
    "the staged flow's lookups did on the last sessions before it was committed, and what",
    "changed. Says so when FILE has changed since its latest version by other means.",
    "",
    "  --flow FILE   The committed flow, NAME.flow.json (required).",
  ].join("\n"),
  valueOptions: ["--flow"],
  run: (args: ParsedArgs, io: Io) => {
    const flow = flowOption(args, USAGE);
    return staging(io, () => Promise.resolve(flowLog(flow)));
  },
};
