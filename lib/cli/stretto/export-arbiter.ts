/**
 * `stretto export-arbiter [--out FILE] <FLOW>`: a learned flow's arbiter as an arbiter file
 * (`{"stretto_arbiter":1,…}`), so the arbiter fitted once can be handed to a flow learned
 * again (`stretto learn --arbiter-from FILE`) or kept apart from the flow it came with.
 * Exit 0; 1 when the flow cannot be read, has no arbiter, or the file cannot be written.
 */
import { arbiterFileOf } from "../../learn/arbiter/index.js";
import { EXIT_OK, EXIT_UNREADABLE, onePositional, say, type Command } from "./command.js";
import { readFlow, ReviewError, writeReport } from "./flow-file.js";

export const exportArbiterCommand: Command = {
  name: "export-arbiter",
  usage: "stretto export-arbiter [--out FILE] <FLOW>",
  summary: "Write a flow's arbiter as an arbiter file, for `learn --arbiter-from`.",
  help: [
    "Writes the arbiter of a flow learned without --habit-only as an arbiter file: the model",
    "it asks, its predicates, its folds and how many held-out decisions they were fitted on.",
    "",
    "  --out FILE   write the arbiter file to FILE instead of stdout",
  ].join("\n"),
  valueOptions: ["--out"],
  async run(args, io) {
    const path = onePositional(this, args, "a flow file");
    try {
      const flow = readFlow(path);
      if (flow.folds.length === 0) {
        throw new ReviewError(`${path} has no arbiter to export: it was learned without a System-One model`);
      }
      await writeReport(args, io, `${JSON.stringify(arbiterFileOf(flow), null, 2)}\n`);
    } catch (e) {
      if (!(e instanceof ReviewError)) throw e;
      say(io, e.message);
      return EXIT_UNREADABLE;
    }
    return EXIT_OK;
  },
};
