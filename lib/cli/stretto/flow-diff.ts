/**
 * `stretto flow-diff [--tolerance X] [--threshold P] [--out FILE] OLD NEW`: what changed
 * between two flows (docs/flow-review.md), in Markdown. Exit 0 when nothing needs review, 1 when
 * something does (the Markdown is printed all the same), 2 on any error.
 */
import { diffFlows } from "../../review/diff-flows.js";
import { EXIT_OK, EXIT_USAGE, UsageError, say, type Command } from "./command.js";
import { numberOption, readFlow, ReviewError, writeReport } from "./flow-file.js";
import { SERVED_THRESHOLD } from "./flow-show.js";

/** Exit 1: a change needs review. */
export const EXIT_NEEDS_REVIEW = 1;
/** Shares, chances and weights that moved less than this are left out by default. */
export const DEFAULT_TOLERANCE = 0.05;

export const flowDiffCommand: Command = {
  name: "flow-diff",
  usage: "stretto flow-diff [--tolerance X] [--threshold P] [--out FILE] <OLD> <NEW>",
  summary: "Say what changed between two flows; exit 1 when a change needs review.",
  help: [
    "Lists what changed from OLD to NEW under the headings flow-show uses, and first the",
    "changes a reviewer must look at: a tool newly read-only, a new lookup or binding, a",
    "constant, a site it now acts at, a changed run, or a model or question it now asks.",
    "Exit 0 when nothing needs review, 1 when something does, 2 on an error.",
    "",
    "  --tolerance X   leave out shares, chances and weights that moved less (default 0.05)",
    "  --threshold P   the threshold the flows will be served with (default 0.3)",
    "  --out FILE      write the Markdown to FILE instead of stdout",
  ].join("\n"),
  valueOptions: ["--tolerance", "--threshold", "--out"],
  async run(args, io) {
    if (args.positionals.length !== 2) {
      const why = args.positionals.length < 2 ? "needs OLD and NEW, two flow files" : `takes two flow files, not ${args.positionals.length}`;
      throw new UsageError(`flow-diff ${why}`, this.usage);
    }
    const [oldPath, newPath] = args.positionals as [string, string];
    const tolerance = numberOption(this, args, "--tolerance", "X", DEFAULT_TOLERANCE);
    const threshold = numberOption(this, args, "--threshold", "P", SERVED_THRESHOLD);
    try {
      const diff = diffFlows(readFlow(oldPath), readFlow(newPath), { tolerance, threshold });
      await writeReport(args, io, diff.markdown);
      if (diff.needsReview.length === 0) return EXIT_OK;
      say(io, `${diff.needsReview.length} change(s) need review`);
      return EXIT_NEEDS_REVIEW;
    } catch (e) {
      if (!(e instanceof ReviewError)) throw e;
      say(io, e.message);
      return EXIT_USAGE;
    }
  },
};
