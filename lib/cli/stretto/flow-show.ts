/**
 * `stretto flow-show [--threshold P] [--out FILE] FILE`: a flow as a reviewer reads it
 * (docs/flow-review.md), in Markdown. Exit 0, or 1 when the flow cannot be read or the report
 * cannot be written.
 */
import { showFlow } from "../../review/show-flow.js";
import { EXIT_OK, EXIT_UNREADABLE, onePositional, say, type Command } from "./command.js";
import { numberOption, readFlow, ReviewError, writeReport } from "./flow-file.js";

/** The threshold flows are served with unless `--flow-threshold` says otherwise. */
export const SERVED_THRESHOLD = 0.3;

export const flowShowCommand: Command = {
  name: "flow-show",
  usage: "stretto flow-show [--threshold P] [--out FILE] <FILE>",
  summary: "Show what a flow may do, in Markdown, to review it like code.",
  help: [
    "Prints a flow for review: the tools it may call, what it does after each call and why,",
    "where each lookup's arguments come from, and how it decides.",
    "",
    "  --threshold P   the threshold the flow will be served with (default 0.3)",
    "  --out FILE      write the Markdown to FILE instead of stdout",
  ].join("\n"),
  valueOptions: ["--threshold", "--out"],
  async run(args, io) {
    const path = onePositional(this, args, "a flow file");
    const threshold = numberOption(this, args, "--threshold", "P", SERVED_THRESHOLD);
    try {
      await writeReport(args, io, showFlow(readFlow(path), threshold));
    } catch (e) {
      if (!(e instanceof ReviewError)) throw e;
      say(io, e.message);
      return EXIT_UNREADABLE;
    }
    return EXIT_OK;
  },
};
