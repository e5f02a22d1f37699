/**
 * The one command-line parser of every stretto bin. Each bin declares its options in a table
 * (`OptionSpec`: a name, a value or a flag, repeatable or not, how a value is checked) and
 * `scanArgs` walks argv against it in one of two grammars:
 *
 * - `clap`, for stretto-proxy and stretto-procedure, behaves like clap, so every stretto tool,
 *   whichever implementation, takes the same lines and fails them the same way
 *   (docs/cli-checks.md): `--name value` and `--name=value`, short flags, a trailing
 *   `-- <COMMAND>...` taken verbatim, and usage errors as `error: …`, the usage line and a
 *   hint, exit 2 (`parseCommandLine`).
 * - `plain`, for the `stretto` subcommands and stretto-mcp-demo: every word that starts with
 *   `-` (but `-` itself) names an option by its whole text, a value is the next word whatever
 *   it looks like, and other words are positionals. Each of those bins words its own usage
 *   errors from the `ArgProblem` the walk stops at.
 */
export interface OptionSpec {
  /** Long name without dashes: `record`. */
  long: string;
  short?: string;
  /** Placeholder for the value (`DIR`); absent for a flag. */
  value?: string;
  repeatable?: boolean;
  /** Checks and converts a value; throws InvalidValue, with the reason, for a bad one. */
  parse?: (raw: string) => unknown;
  /** Options that must also be given when this one is given explicitly. */
  requires?: string[];
  /** Options that cannot be given with this one. */
  conflicts?: string[];
}

/** An option of a bin whose help is made from its table. */
export interface HelpedOption extends OptionSpec {
  help: string;
  heading: string;
  /** Default shown in help (`[default: 8]`). */
  defaultText?: string;
}

export interface CommandSpec {
  name: string;
  version: string;
  about: string;
  usage: string;
  options: HelpedOption[];
  /** The positional after `--`: its placeholder and help. */
  trailing?: { name: string; help: string; requiredUnless?: string; conflicts?: string };
  /**
   * Checks what one option's `parse` cannot see (options together, or a value that must not
   * be echoed as given): returns a usage error's text, or undefined when all is well.
   */
  check?: (args: ParsedArgs) => string | undefined;
}

export type ParsedArgs = {
  values: Map<string, unknown[]>;
  trailing: string[];
};

export type ParseOutcome =
  | { kind: "run"; args: ParsedArgs }
  | { kind: "help"; text: string }
  | { kind: "version"; text: string }
  | { kind: "usage-error"; text: string };

export class InvalidValue extends Error {}

/** Where a walk of argv stopped: the first word it could not take. */
export type ArgProblem =
  /** A word that names no option of the table; `name` is the word before any `=`. */
  | { kind: "unknown"; name: string }
  /** A word that is no option where the grammar takes no positionals. */
  | { kind: "positional"; word: string }
  /** An option that takes a value, given none (`name` as written). */
  | { kind: "no-value"; option: OptionSpec; name: string }
  /** A flag given a value with `=`. */
  | { kind: "flag-value"; option: OptionSpec; name: string; value: string }
  /** A second use of an option that is not repeatable. */
  | { kind: "repeated"; option: OptionSpec }
  /** A value the option's `parse` refused, with its reason. */
  | { kind: "invalid"; option: OptionSpec; raw: string; reason: string };

export class ArgError extends Error {
  constructor(readonly problem: ArgProblem) {
    super(problem.kind);
    this.name = "ArgError";
  }
}

export interface Grammar {
  options: readonly OptionSpec[];
  style: "clap" | "plain";
  /** Whether `--name=value` gives a value; without it the whole word names the option. */
  inlineValues: boolean;
  /** Whether words that are no options are taken; else each is an ArgProblem. */
  positionals: boolean;
  /** Words answered apart from the options (`-h`, `--version`): noted, in order, and skipped. */
  asks?: readonly string[];
}

export interface Scanned {
  /** Each option's values by long name, in the order given (`true` for each use of a flag). */
  values: Map<string, unknown[]>;
  positionals: string[];
  /** What follows `--`, verbatim; undefined when there was no `--`. */
  trailing: string[] | undefined;
  /** The `asks` words given, in order. */
  asked: string[];
}

/** Walks argv against a table of options; throws ArgError at the first word it cannot take. */
export function scanArgs(grammar: Grammar, argv: readonly string[]): Scanned {
  const byName = new Map<string, OptionSpec>();
  for (const o of grammar.options) {
    byName.set(`--${o.long}`, o);
    if (o.short) byName.set(`-${o.short}`, o);
  }
  const clap = grammar.style === "clap";
  const scanned: Scanned = { values: new Map(), positionals: [], trailing: undefined, asked: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      scanned.trailing = argv.slice(i + 1);
      break;
    }
    if (grammar.asks?.includes(arg)) {
      scanned.asked.push(arg);
      continue;
    }
    // clap reads `--long[=value]` and a two-letter `-s`; the plain grammar any `-…` but `-`.
    const isOption = clap ? arg.startsWith("--") || (arg.startsWith("-") && arg.length === 2) : arg.startsWith("-") && arg !== "-";
    if (!isOption) {
      if (!grammar.positionals) throw new ArgError({ kind: "positional", word: arg });
      scanned.positionals.push(arg);
      continue;
    }
    const eq = grammar.inlineValues && (!clap || arg.startsWith("--")) ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    const option = byName.get(name);
    if (!option) throw new ArgError({ kind: "unknown", name });
    if (!option.repeatable && scanned.values.has(option.long)) throw new ArgError({ kind: "repeated", option });
    let value: unknown = true;
    if (option.value) {
      value = takeValue(option, name, inline ?? argv[++i], clap && inline === undefined);
    } else if (inline !== undefined) {
      throw new ArgError({ kind: "flag-value", option, name, value: inline });
    }
    const list = scanned.values.get(option.long) ?? [];
    list.push(value);
    scanned.values.set(option.long, list);
  }
  return scanned;
}

/**
 * One value for an option, checked by its `parse`. A separate word that looks like an
 * option (`-x`, but not a number such as `-1`) is no value when `refuseDashed`, as in clap.
 */
function takeValue(option: OptionSpec, name: string, raw: string | undefined, refuseDashed: boolean): unknown {
  if (raw === undefined || (refuseDashed && raw.startsWith("-") && raw.length > 1 && isNaN(Number(raw)))) {
    throw new ArgError({ kind: "no-value", option, name });
  }
  try {
    return option.parse ? option.parse(raw) : raw;
  } catch (err) {
    if (err instanceof InvalidValue) throw new ArgError({ kind: "invalid", option, raw, reason: err.message });
    throw err;
  }
}

/** clap's text for a problem (after `error: `). */
function clapText(p: ArgProblem): string {
  switch (p.kind) {
    case "unknown":
      return `unexpected argument '${p.name}' found`;
    case "positional":
      return `unexpected argument '${p.word}' found`;
    case "no-value":
      return `a value is required for '${label(p.option)}' but none was supplied`;
    case "flag-value":
      return `unexpected value '${p.value}' for '--${p.option.long}' found; no more were expected`;
    case "repeated":
      return `the argument '${label(p.option)}' cannot be used multiple times`;
    case "invalid":
      return `invalid value '${p.raw}' for '${label(p.option)}': ${p.reason}`;
  }
}

export function parseCommandLine(spec: CommandSpec, argv: readonly string[]): ParseOutcome {
  try {
    return parse(spec, argv);
  } catch (err) {
    const text = err instanceof UsageError ? err.message : err instanceof ArgError ? clapText(err.problem) : undefined;
    if (text !== undefined) {
      return { kind: "usage-error", text: `error: ${text}\n\n${spec.usage}\n\nFor more information, try '--help'.\n` };
    }
    throw err;
  }
}

class UsageError extends Error {}

function label(o: OptionSpec): string {
  const name = o.short ? `-${o.short}, --${o.long}` : `--${o.long}`;
  return o.value ? `${name.includes(",") ? `--${o.long}` : name} <${o.value}>` : `--${o.long}`;
}

const HELP = ["-h", "--help"];
const VERSION_ASKS = ["-V", "--version"];

function parse(spec: CommandSpec, argv: readonly string[]): ParseOutcome {
  // -h/-V answer only a line that is otherwise well-formed: an unknown option after them
  // is still a usage error. What a run needs (requires, the server command) is not asked.
  const scanned = scanArgs({ options: spec.options, style: "clap", inlineValues: true, positionals: false, asks: [...HELP, ...VERSION_ASKS] }, argv);
  const first = scanned.asked[0];
  if (first !== undefined) {
    return HELP.includes(first) ? { kind: "help", text: helpText(spec) } : { kind: "version", text: `${spec.name} ${spec.version}\n` };
  }
  const { values, trailing } = scanned;
  const togetherProblem = checkTogether(spec.options, values);
  if (togetherProblem !== undefined) throw new UsageError(togetherProblem);

  const byLong = new Map(spec.options.map((o) => [o.long, o]));
  const t = spec.trailing;
  if (t) {
    const given = trailing !== undefined && trailing.length > 0;
    if (given && t.conflicts && values.has(t.conflicts)) {
      throw new UsageError(`the argument '--${t.conflicts} <${byLong.get(t.conflicts)?.value}>' cannot be used with '${t.name}...'`);
    }
    if (!given && !(t.requiredUnless && values.has(t.requiredUnless))) {
      throw new UsageError(`the following required arguments were not provided: ${t.name}...`);
    }
  }
  const args = { values, trailing: trailing ?? [] };
  const problem = spec.check?.(args);
  if (problem !== undefined) throw new UsageError(problem);
  return { kind: "run", args };
}

/** The first option, in table order, given without one it requires or with one it conflicts with. */
function checkTogether(options: readonly OptionSpec[], values: ReadonlyMap<string, unknown[]>): string | undefined {
  const byLong = new Map(options.map((o) => [o.long, o]));
  for (const o of options) {
    if (!values.has(o.long)) continue;
    for (const needed of o.requires ?? []) {
      if (!values.has(needed)) return `the following required arguments were not provided: ${label(byLong.get(needed)!)}`;
    }
    for (const other of o.conflicts ?? []) {
      if (values.has(other)) return `the argument '${label(o)}' cannot be used with '${label(byLong.get(other)!)}'`;
    }
  }
  return undefined;
}

/**
 * Options another parse took as raw words (`stretto replay` takes the proxy's flow options),
 * checked as `parseCommandLine` checks them: each value by the table (in table order, values
 * before flags), a second use of what is not repeatable, requires and conflicts. The values by
 * long name, or the usage error's text (without `error: `).
 */
export function checkTaken(
  options: readonly OptionSpec[],
  raw: { lists: ReadonlyMap<string, readonly string[]>; flags: ReadonlySet<string> },
): { values: Map<string, unknown[]> } | { error: string } {
  const values = new Map<string, unknown[]>();
  try {
    const withValue = options.filter((o) => o.value !== undefined);
    for (const o of withValue) {
      for (const word of raw.lists.get(`--${o.long}`) ?? []) {
        if (!o.repeatable && values.has(o.long)) throw new ArgError({ kind: "repeated", option: o });
        const list = values.get(o.long) ?? [];
        list.push(takeValue(o, `--${o.long}`, word, true));
        values.set(o.long, list);
      }
    }
    for (const o of options) if (o.value === undefined && raw.flags.has(`--${o.long}`)) values.set(o.long, [true]);
  } catch (err) {
    // A usage error's reason is one line, whatever a value holds.
    if (err instanceof ArgError) return { error: clapText(err.problem).split("\n")[0]! };
    throw err;
  }
  const problem = checkTogether(options, values);
  return problem === undefined ? { values } : { error: problem.split("\n")[0]! };
}

function helpText(spec: CommandSpec): string {
  const lines = [spec.about, "", spec.usage, ""];
  const headings = [...new Set(spec.options.map((o) => o.heading))];
  const shown = (o: HelpedOption) => (o.short ? `-${o.short}, ${label(o)}` : `    ${label(o)}`);
  const width = Math.max(...spec.options.map((o) => shown(o).length), "-V, --version".length) + 2;
  for (const heading of headings) {
    lines.push(`${heading}:`);
    for (const o of spec.options.filter((x) => x.heading === heading)) {
      const help = o.defaultText ? `${o.help} [default: ${o.defaultText}]` : o.help;
      lines.push(`  ${shown(o).padEnd(width)}${help}`);
    }
    lines.push("");
  }
  if (spec.trailing) {
    lines.push("Arguments:", `  ${`${spec.trailing.name}...`.padEnd(width)}${spec.trailing.help}`, "");
  }
  lines.push("Options:", `  ${"-h, --help".padEnd(width)}Print help`, `  ${"-V, --version".padEnd(width)}Print version`);
  return `${lines.join("\n")}\n`;
}

/** Values of one option, in the order given. */
export function all<T>(args: ParsedArgs, long: string): T[] {
  return (args.values.get(long) ?? []) as T[];
}

export function one<T>(args: ParsedArgs, long: string): T | undefined {
  return (args.values.get(long) ?? [])[0] as T | undefined;
}

export function flag(args: ParsedArgs, long: string): boolean {
  return args.values.has(long);
}

/** A non-negative whole number, as clap's u64 parser takes it. */
export function unsignedInteger(raw: string): number {
  if (!/^\+?\d+$/.test(raw)) throw new InvalidValue("invalid digit found in string");
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new InvalidValue("number too large to fit in target type");
  return n;
}
