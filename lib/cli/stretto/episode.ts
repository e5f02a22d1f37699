/** `stretto episode <log>`: one session log as an Episode, as indented JSON. */
import { readEpisode } from "../../trace/index.js";
import { EXIT_OK, TextOut, onePositional, type Command } from "./command.js";
import { episodeJson } from "./episode-json.js";

export const episodeCommand: Command = {
  name: "episode",
  usage: "stretto episode <log>",
  summary: "Print a session log as an Episode (JSON).",
  help: [
    "Reads one session log that stretto-proxy recorded and prints it as an Episode: the",
    "tool calls grouped into the LLM turns they were made in, their results, and what the",
    "host said (from --context). The log is read as a stream; a last line cut off",
    "mid-write is dropped. Tool names are the server's own; `stretto episodes` names them",
    "after their server when it merges a host session's servers.",
  ].join("\n"),
  async run(args, io) {
    const path = onePositional(this, args, "a log file");
    const ep = await readEpisode(path);
    const out = new TextOut(io.stdout);
    for (const piece of episodeJson(ep, 2)) await out.write(piece);
    await out.write("\n");
    await out.flush();
    return EXIT_OK;
  },
};
