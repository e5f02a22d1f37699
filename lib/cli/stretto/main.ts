/**
 * `stretto`: the offline tools over what stretto-proxy recorded. Exit 0 on success, 1 when
 * input cannot be read (with the reader's message), 2 on a usage error (a one-line reason,
 * then the usage line as the hint).
 */
import { LogReadError } from "../../trace/index.js";
import {
  EXIT_OK,
  EXIT_UNREADABLE,
  EXIT_USAGE,
  UsageError,
  checkHelpLine,
  parseArgs,
  say,
  type Command,
  type Io,
} from "./command.js";
import { COMMANDS, loadCommands } from "./commands.js";

export const USAGE = "stretto <command> [arguments]";
const TOP_OPTIONS = ["-h", "--help", "-V", "--version"];

export async function main(argv: readonly string[], io: Io, version: string): Promise<number> {
  try {
    return await dispatch(argv, io, version);
  } catch (e) {
    if (e instanceof UsageError) {
      say(io, e.message);
      io.stderr.write(`Usage: ${e.usage}\n`);
      return EXIT_USAGE;
    }
    if (e instanceof LogReadError) {
      say(io, e.message);
      return EXIT_UNREADABLE;
    }
    throw e;
  }
}

async function dispatch(argv: readonly string[], io: Io, version: string): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError("no command given (try 'stretto help')", USAGE);
  if (first === "-h" || first === "--help" || first === "-V" || first === "--version") {
    // An unknown option is a usage error wherever it is, also after -h/-V.
    const unknown = rest.find((a) => a.startsWith("-") && !TOP_OPTIONS.includes(a));
    if (unknown !== undefined) throw new UsageError(`no option ${unknown}`, USAGE);
    return print(io, first === "-h" || first === "--help" ? await overallHelp() : `stretto ${version}`);
  }
  if (first === "help") {
    if (rest.length > 1) throw new UsageError(`help takes one command, not ${rest.length}`, "stretto help [command]");
    return print(io, rest[0] === undefined ? await overallHelp() : commandHelp(await find(rest[0])));
  }
  if (first.startsWith("-")) throw new UsageError(`no option ${first} before a command`, USAGE);
  const command = await find(first);
  if (rest.includes("-h") || rest.includes("--help")) {
    checkHelpLine(command, rest);
    return print(io, commandHelp(command));
  }
  return command.run(parseArgs(command, rest), io);
}

async function find(name: string): Promise<Command> {
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) throw new UsageError(`no command named '${name}' (try 'stretto help')`, USAGE);
  return entry.load();
}

function print(io: Io, text: string): number {
  io.stdout.write(text + "\n");
  return EXIT_OK;
}

async function overallHelp(): Promise<string> {
  const commands = await loadCommands();
  // Long usages go on a line of their own, so the summaries stay in one column.
  const width = 18;
  const row = (left: string, right: string): string =>
    left.length + 2 > width ? `  ${left}\n  ${" ".repeat(width)}${right}` : `  ${left.padEnd(width)}${right}`;
  return [
    "Read the sessions stretto-proxy recorded.",
    "",
    `Usage: ${USAGE}`,
    "",
    "Commands:",
    ...commands.map((c) => row(c.usage.slice("stretto ".length), c.summary)),
    row("help [command]", "Print this help, or a command's."),
    "",
    "Options:",
    "  -h, --help     Print help (also after a command).",
    "  -V, --version  Print the version.",
    "",
    "Exit status: 0 on success; 1 when the command failed (a log or folder cannot be read; flow-diff:",
    "a change needs review; doctor: a problem found; drift: the agent changed); 2 on a usage error",
    "(flow-diff and drift: any error).",
  ].join("\n");
}

function commandHelp(c: Command): string {
  return `${c.summary}\n\nUsage: ${c.usage}\n\n${c.help}`;
}
