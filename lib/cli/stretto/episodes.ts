/**
 * `stretto episodes <dir>`: every session in a folder, one Episode per line. A host
 * session's logs across servers become one episode, tools named `server::tool`.
 */
import { folderEpisodes } from "../../trace/index.js";
import { EXIT_OK, TextOut, onePositional, type Command } from "./command.js";
import { episodeJson } from "./episode-json.js";
import { STRICT_FLAG, STRICT_HELP, planWithProgress } from "./folder-report.js";
import { PROGRESS_MIN_LOGS, QUIET_FLAG, QUIET_HELP, quiet } from "./progress.js";

export const episodesCommand: Command = {
  name: "episodes",
  usage: "stretto episodes <dir>",
  summary: "Print every session in a folder, one Episode per line (JSONL).",
  help: [
    "Reads every session log in the folder (*.jsonl, not *.flow.jsonl or *.confirm.jsonl;",
    "not its subfolders), in session order, and prints one Episode per line. The logs a",
    "host session left with several servers (same STRETTO_SESSION, named servers, running",
    "at overlapping times) are merged into one episode named after the host session, each",
    "tool named after its server (shop::get_order); then every other log's tools are named",
    "after their server too. stderr says what was merged, and shows progress for folders",
    `of ${PROGRESS_MIN_LOGS} logs or more: a live bar on a terminal, else a line every few seconds.`,
    "",
    ...STRICT_HELP,
    "",
    "  --strict  Fail (exit 1) on the first file that is no session log, instead of skipping it.",
    QUIET_HELP,
  ].join("\n"),
  flagOptions: [STRICT_FLAG, QUIET_FLAG],
  async run(args, io) {
    const dir = onePositional(this, args, "a folder");
    const { folder, progress } = await planWithProgress(io, dir, args.flags.has(STRICT_FLAG), quiet(args));
    const out = new TextOut(io.stdout);
    for await (const ep of folderEpisodes(folder, (done, total) => progress.update("building episodes", done, total))) {
      for (const piece of episodeJson(ep)) await out.write(piece);
      await out.write("\n");
    }
    await out.flush();
    progress.done();
    return EXIT_OK;
  },
};
