/**
 * What every `stretto` subcommand is: a name, its usage and help, and a run function given
 * its arguments and the process's streams. One file per command; `commands.ts` lists them.
 */
import { once } from "node:events";
import type { Writable } from "node:stream";

export interface Io {
  stdout: Writable;
  stderr: Writable;
  /** Whether stderr is a terminal (progress lines then redraw in place). */
  stderrIsTty: boolean;
}

export interface Command {
  name: string;
  /** `stretto episode <log>` */
  usage: string;
  /** One line for the command list. */
  summary: string;
  /** What `stretto <name> --help` prints after the usage line. */
  help: string;
  /** Options taking a value, by name (`--domain`); each may be given more than once. */
  valueOptions?: readonly string[];
  /** Options that take no value (`--guards`). Any option not listed is a usage error. */
  flagOptions?: readonly string[];
  run(args: ParsedArgs, io: Io): Promise<number>;
}

export interface ParsedArgs {
  positionals: string[];
  /** Each value option's last value. */
  options: Map<string, string>;
  /** Each value option's values, in the order given (for repeatable ones). */
  lists: Map<string, string[]>;
  /** The flags given. */
  flags: Set<string>;
}

/** A usage error: exit 2, the reason, and the command's usage line as the hint. */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    reason: string,
    readonly usage: string,
  ) {
    super(reason);
  }
}

/** Exit codes of `stretto`. */
export const EXIT_OK = 0;
export const EXIT_UNREADABLE = 1;
export const EXIT_USAGE = 2;

/** Split `args` into positionals, flags and `--name value` / `--name=value` options. */
export function parseArgs(command: Command, args: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = { positionals: [], options: new Map(), lists: new Map(), flags: new Set() };
  const takes = new Set(command.valueOptions ?? []);
  const flags = new Set(command.flagOptions ?? []);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      parsed.positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      parsed.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (flags.has(name)) {
      if (eq !== -1) throw new UsageError(`${name} takes no value`, command.usage);
      parsed.flags.add(name);
      continue;
    }
    if (!takes.has(name)) throw new UsageError(`${command.name} has no option ${name}`, command.usage);
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new UsageError(`${name} needs a value`, command.usage);
    parsed.options.set(name, value);
    parsed.lists.set(name, [...(parsed.lists.get(name) ?? []), value]);
  }
  return parsed;
}

/** A line that asks for a command's help is answered only if its options are the command's. */
export function checkHelpLine(command: Command, args: readonly string[]): void {
  parseArgs({ ...command, flagOptions: [...(command.flagOptions ?? []), "-h", "--help"] }, args);
}

/** The one positional a command takes, or a usage error naming what it wanted. */
export function onePositional(command: Command, args: ParsedArgs, what: string): string {
  const [first, ...rest] = args.positionals;
  if (first === undefined) throw new UsageError(`${command.name} needs ${what}`, command.usage);
  if (rest.length > 0) {
    throw new UsageError(`${command.name} takes one ${what.replace(/^an? /, "")}, not ${args.positionals.length}`, command.usage);
  }
  return first;
}

/** Writes text in pieces of about 64 KiB, waiting whenever the stream asks it to. */
export class TextOut {
  private buffered = "";

  constructor(private readonly out: Writable) {}

  async write(text: string): Promise<void> {
    this.buffered += text;
    if (this.buffered.length >= 1 << 16) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffered === "") return;
    const text = this.buffered;
    this.buffered = "";
    if (!this.out.write(text)) await once(this.out, "drain");
  }
}

/** `stretto: {message}` on stderr. */
export function say(io: Io, message: string): void {
  io.stderr.write(`stretto: ${message}\n`);
}
