/**
 * What every `stretto` subcommand is: a name, its usage and help, and a run function given
 * its arguments and the process's streams. One file per command; `commands.ts` lists them.
 */
import { once } from "node:events";
import type { Writable } from "node:stream";
import { ArgError, scanArgs, type ArgProblem, type OptionSpec, type Scanned } from "../args.js";

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
  /** The values a value option takes, where they are a few words (`--host`): shell completions offer them. */
  valueChoices?: Readonly<Record<string, readonly string[]>>;
  /** The words its arguments are chosen from, when they are a few (`completions bash`). */
  positionalChoices?: readonly string[];
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

/**
 * A command's options (all named `--long`) as a table for the command-line parser: each may be
 * given more than once, and a value is taken as given (a command checks its own).
 */
function optionTable(command: Command, extra: readonly OptionSpec[]): OptionSpec[] {
  const named = (name: string, value: string | undefined): OptionSpec => ({ long: name.replace(/^--/, ""), ...(value ? { value } : {}), repeatable: true });
  return [...(command.valueOptions ?? []).map((n) => named(n, "VALUE")), ...(command.flagOptions ?? []).map((n) => named(n, undefined)), ...extra];
}

/** Split `args` into positionals, flags and `--name value` / `--name=value` options. */
export function parseArgs(command: Command, args: readonly string[]): ParsedArgs {
  return toParsed(scan(command, args, []));
}

function scan(command: Command, args: readonly string[], extra: readonly OptionSpec[]): Scanned {
  try {
    return scanArgs({ options: optionTable(command, extra), style: "plain", inlineValues: true, positionals: true }, args);
  } catch (e) {
    if (e instanceof ArgError) throw new UsageError(problemText(command, e.problem), command.usage);
    throw e;
  }
}

/** The one-line reason `stretto` gives for a word it cannot take. */
function problemText(command: Command, p: ArgProblem): string {
  switch (p.kind) {
    case "flag-value":
      return `${p.name} takes no value`;
    case "no-value":
      return `${p.name} needs a value`;
    case "unknown":
      return `${command.name} has no option ${p.name}`;
    default:
      // Not met: every option of a command repeats, takes any value, and positionals are taken.
      throw new Error(`unexpected ${p.kind} in a stretto command line`);
  }
}

function toParsed(scanned: Scanned): ParsedArgs {
  const parsed: ParsedArgs = { positionals: [...scanned.positionals, ...(scanned.trailing ?? [])], options: new Map(), lists: new Map(), flags: new Set() };
  for (const [long, values] of scanned.values) {
    const name = `--${long}`;
    if (values[0] === true) {
      parsed.flags.add(name);
    } else {
      parsed.lists.set(name, values as string[]);
      parsed.options.set(name, values[values.length - 1] as string);
    }
  }
  return parsed;
}

/** A line that asks for a command's help is answered only if its options are the command's. */
export function checkHelpLine(command: Command, args: readonly string[]): void {
  scan(command, args, [{ long: "help", short: "h", repeatable: true }]);
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
