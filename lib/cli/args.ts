/**
 * A small declarative command-line parser that behaves like clap, so every stretto tool,
 * whichever implementation, takes the same lines and fails them the same way (docs/cli-checks.md):
 * `--name value` and `--name=value`, short flags, a trailing `-- <COMMAND>...` taken
 * verbatim, and usage errors as `error: …`, the usage line and a hint, exit 2.
 */
export interface OptionSpec {
  /** Long name without dashes: `record`. */
  long: string;
  short?: string;
  /** Placeholder for the value (`DIR`); absent for a flag. */
  value?: string;
  repeatable?: boolean;
  help: string;
  heading: string;
  /** Default shown in help (`[default: 8]`). */
  defaultText?: string;
  /** Checks and converts a value; throw UsageError's message text for a bad one. */
  parse?: (raw: string) => unknown;
  /** Options that must also be given when this one is given explicitly. */
  requires?: string[];
  /** Options that cannot be given with this one. */
  conflicts?: string[];
}

export interface CommandSpec {
  name: string;
  version: string;
  about: string;
  usage: string;
  options: OptionSpec[];
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

export function parseCommandLine(spec: CommandSpec, argv: readonly string[]): ParseOutcome {
  try {
    return parse(spec, argv);
  } catch (err) {
    if (err instanceof UsageError) {
      return { kind: "usage-error", text: `error: ${err.message}\n\n${spec.usage}\n\nFor more information, try '--help'.\n` };
    }
    throw err;
  }
}

class UsageError extends Error {}

function label(o: OptionSpec): string {
  const name = o.short ? `-${o.short}, --${o.long}` : `--${o.long}`;
  return o.value ? `${name.includes(",") ? `--${o.long}` : name} <${o.value}>` : `--${o.long}`;
}

function parse(spec: CommandSpec, argv: readonly string[]): ParseOutcome {
  const values = new Map<string, unknown[]>();
  const byLong = new Map(spec.options.map((o) => [o.long, o]));
  const byShort = new Map(spec.options.filter((o) => o.short).map((o) => [o.short!, o]));
  let trailing: string[] | undefined;
  // -h/-V answer only a line that is otherwise well-formed: an unknown option after them
  // is still a usage error. What a run needs (requires, the server command) is not asked.
  let asked: ParseOutcome | undefined;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      trailing = argv.slice(i + 1);
      break;
    }
    if (arg === "-h" || arg === "--help") {
      asked ??= { kind: "help", text: helpText(spec) };
      continue;
    }
    if (arg === "-V" || arg === "--version") {
      asked ??= { kind: "version", text: `${spec.name} ${spec.version}\n` };
      continue;
    }

    let option: OptionSpec | undefined;
    let inline: string | undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
      option = byLong.get(name);
    } else if (arg.startsWith("-") && arg.length === 2) {
      option = byShort.get(arg.slice(1));
    } else {
      throw new UsageError(`unexpected argument '${arg}' found`);
    }
    if (!option) throw new UsageError(`unexpected argument '${arg.split("=")[0]}' found`);
    if (!option.repeatable && values.has(option.long)) {
      throw new UsageError(`the argument '${label(option)}' cannot be used multiple times`);
    }
    let value: unknown = true;
    if (option.value) {
      const raw = inline ?? argv[++i];
      if (raw === undefined || (inline === undefined && raw.startsWith("-") && raw.length > 1 && isNaN(Number(raw)))) {
        throw new UsageError(`a value is required for '${label(option)}' but none was supplied`);
      }
      try {
        value = option.parse ? option.parse(raw) : raw;
      } catch (err) {
        if (err instanceof InvalidValue) {
          throw new UsageError(`invalid value '${raw}' for '${label(option)}': ${err.message}`);
        }
        throw err;
      }
    } else if (inline !== undefined) {
      throw new UsageError(`unexpected value '${inline}' for '--${option.long}' found; no more were expected`);
    }
    const list = values.get(option.long) ?? [];
    list.push(value);
    values.set(option.long, list);
  }
  if (asked) return asked;

  for (const o of spec.options) {
    if (!values.has(o.long)) continue;
    for (const needed of o.requires ?? []) {
      if (!values.has(needed)) {
        throw new UsageError(`the following required arguments were not provided: ${label(byLong.get(needed)!)}`);
      }
    }
    for (const other of o.conflicts ?? []) {
      if (values.has(other)) {
        throw new UsageError(`the argument '${label(o)}' cannot be used with '${label(byLong.get(other)!)}'`);
      }
    }
  }

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

function helpText(spec: CommandSpec): string {
  const lines = [spec.about, "", spec.usage, ""];
  const headings = [...new Set(spec.options.map((o) => o.heading))];
  const shown = (o: OptionSpec) => (o.short ? `-${o.short}, ${label(o)}` : `    ${label(o)}`);
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
