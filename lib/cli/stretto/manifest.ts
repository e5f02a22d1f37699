/**
 * `stretto manifest [--domain NAME] <log|dir>`: the tools the servers listed, with their
 * kinds (from readOnlyHint) and docs, as JSON. For a folder, sessions are merged as
 * `stretto episodes` merges them, so tools of several servers are named `server::tool`.
 */
import { stat } from "node:fs/promises";
import { LogReadError, folderManifest, readManifest, type ToolManifest } from "../../trace/index.js";
import { osErrorText } from "../../util/os-errors.js";
import { EXIT_OK, TextOut, onePositional, type Command } from "./command.js";
import { STRICT_FLAG, STRICT_HELP, planWithProgress } from "./folder-report.js";
import { QUIET_FLAG, QUIET_HELP, quiet } from "./progress.js";

export const manifestCommand: Command = {
  name: "manifest",
  usage: "stretto manifest [--domain NAME] <log|dir>",
  summary: "Print the tools the servers listed: kinds and docs (JSON).",
  help: [
    "Reads the server's answers to the host's tools/list requests and prints the tool",
    'manifest: {"domain", "tools": {name: "read"|"write"|"generic"}, "docs": {name:',
    '{"summary", "args"}}}. A tool\'s kind is its readOnlyHint annotation: true is read,',
    "false is write, none is generic (unknown: MCP says to assume it may write). A later",
    "listing wins. Given a folder, every session log in it counts, merged across servers",
    "as `stretto episodes` merges them.",
    "",
    ...STRICT_HELP,
    "A log file given by name is always read, and is an error if it cannot be.",
    "",
    "  --domain NAME  The manifest's domain. Default: the logs' domain when they all name",
    "                 the same one, else mcp.",
    "  --strict       Fail (exit 1) on the first file in the folder that is no session",
    "                 log, instead of skipping it.",
    QUIET_HELP,
  ].join("\n"),
  valueOptions: ["--domain"],
  flagOptions: [STRICT_FLAG, QUIET_FLAG],
  async run(args, io) {
    const path = onePositional(this, args, "a log file or folder");
    const given = args.options.get("--domain");
    const isDir = await stat(path).then(
      (s) => s.isDirectory(),
      (e: unknown) => {
        throw new LogReadError(`reading ${path}: ${osErrorText(e)}`);
      },
    );
    let manifest: ToolManifest;
    if (isDir) {
      const { folder, progress } = await planWithProgress(io, path, args.flags.has(STRICT_FLAG), quiet(args));
      const domains = new Set(folder.summaries.map((s) => s.header.domain));
      const [only] = domains;
      const domain = given ?? (domains.size === 1 && typeof only === "string" ? only : "mcp");
      manifest = await folderManifest(folder, domain, (done, total) => progress.update("reading tools", done, total));
      progress.done();
    } else {
      const { header, listed } = await readManifest(path);
      manifest = listed.finish(given ?? header.domain ?? "mcp");
    }
    const out = new TextOut(io.stdout);
    await out.write(JSON.stringify(manifest, null, 2) + "\n");
    await out.flush();
    return EXIT_OK;
  },
};
