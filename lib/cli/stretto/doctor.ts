/**
 * `stretto doctor [--network] [--data DIR]`: checks the installation and the data folder
 * (docs/doctor.md). Exit 0, or 1 when something is a problem. Never prints a key.
 */
import { doctor, findingLines } from "../../doctor/index.js";
import { VERSION } from "../../version.js";
import { EXIT_OK, EXIT_UNREADABLE, UsageError, say, type Command } from "./command.js";

const USAGE = "stretto doctor [--network] [--data DIR]";

export const doctorCommand: Command = {
  name: "doctor",
  usage: USAGE,
  summary: "Check the installation, the data folder and the key (without showing it).",
  help: [
    "Checks that stretto-proxy, stretto-procedure and stretto-mcp-demo are on PATH and are this",
    "stretto's version, that the data folder is writable, whether a key for TypeSafe's Jev is",
    "set (never its value), and lists the flows and recorded sessions in the folder. Each line",
    "starts ok, note or problem; exit 1 when there is a problem.",
    "",
    "  --data DIR   The data folder to check (default ~/.stretto).",
    "  --network    Also ask Jev one question with the key, when one is set.",
  ].join("\n"),
  valueOptions: ["--data"],
  flagOptions: ["--network"],
  async run(args, io) {
    if (args.positionals.length > 0) throw new UsageError(`doctor takes no arguments, not ${args.positionals[0]}`, USAGE);
    const exe = process.argv[1];
    io.stdout.write(`stretto ${VERSION}${exe === undefined ? "" : ` (${exe})`}\n\n`);
    let problems = 0;
    await doctor({ version: VERSION, exe, env: process.env, data: args.options.get("--data"), network: args.flags.has("--network") }, (f) => {
      if (f.level === "problem") problems++;
      io.stdout.write(findingLines(f));
    });
    if (problems === 0) return EXIT_OK;
    say(io, `${problems} problem${problems === 1 ? "" : "s"} to fix`);
    return EXIT_UNREADABLE;
  },
};
