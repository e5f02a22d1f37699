/**
 * `stretto completions bash|zsh|fish`: the completion script for stretto, stretto-proxy,
 * stretto-mcp-demo and stretto-procedure (docs/completions.md), made from the same tables
 * their `--help` comes from: each `stretto` command's options, the proxy's and the
 * procedure runner's option tables, and the demo server's.
 */
import { SHELLS, completionScript, type CompletedBinary, type CompletedCommand, type CompletedOption, type Shell } from "../../completions/index.js";
import type { CommandSpec, HelpedOption, OptionSpec } from "../args.js";
import { procedureCommand } from "../procedure-options.js";
import { proxyCommand } from "../proxy-options.js";
import { OPTIONS as DEMO_OPTIONS } from "../stretto-mcp-demo-args.js";
import { EXIT_OK, UsageError, onePositional, type Command } from "./command.js";

const USAGE = "stretto completions bash|zsh|fish";

const HELP: CompletedOption = { long: "help", short: "h", help: "Print help" };
const VERSION: CompletedOption = { long: "version", short: "V", help: "Print version" };

/** The command; `commands` is the table it completes, itself included, read when it runs. */
export function completionsCommand(commands: () => Promise<readonly Command[]>): Command {
  return {
    name: "completions",
    usage: USAGE,
    summary: "Print the shell completion script for stretto's four binaries.",
    positionalChoices: SHELLS,
    help: [
      "Prints a script that completes the options of stretto (and its commands), stretto-proxy,",
      "stretto-mcp-demo and stretto-procedure. Load it in your shell's start-up file:",
      "",
      "  bash   source <(stretto completions bash)        (in ~/.bashrc)",
      "  zsh    source <(stretto completions zsh)         (in ~/.zshrc, after compinit)",
      "  fish   stretto completions fish | source         (in ~/.config/fish/config.fish)",
    ].join("\n"),
    async run(args, io) {
      const shell = onePositional(this, args, "a shell (bash, zsh or fish)");
      if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`completions knows bash, zsh and fish, not ${shell}`, USAGE);
      const table = await commands();
      await new Promise<void>((done) => io.stdout.write(completionScript(shell as Shell, binaries(table)), () => done()));
      return EXIT_OK;
    },
  };
}

/** The four binaries as the completion scripts see them. */
export function binaries(commands: readonly Command[]): CompletedBinary[] {
  const names = commands.map((c) => c.name);
  const stretto: CompletedBinary = {
    name: "stretto",
    options: [HELP, VERSION],
    trailing: false,
    subcommands: [...commands.map(subcommand), { name: "help", summary: "Print the help, or a command's.", options: [], trailing: false, positionals: names }],
  };
  return [stretto, fromSpec(proxyCommand), fromPlain("stretto-mcp-demo", DEMO_OPTIONS), fromSpec(procedureCommand)];
}

function subcommand(c: Command): CompletedCommand {
  const helps = optionHelps(c.help);
  const option = (name: string, value: string | undefined): CompletedOption => {
    const choices = c.valueChoices?.[name];
    const help = helps.get(name);
    const shown = value === undefined ? undefined : (help?.value ?? value);
    return {
      long: name.replace(/^--/, ""),
      ...(shown === undefined ? {} : { value: shown }),
      ...(choices === undefined ? {} : { choices }),
      ...(help === undefined ? {} : { help: help.text }),
      repeatable: true,
    };
  };
  return {
    name: c.name,
    summary: c.summary,
    options: [...(c.valueOptions ?? []).map((n) => option(n, "VALUE")), ...(c.flagOptions ?? []).map((n) => option(n, undefined)), HELP],
    trailing: false,
    ...(c.positionalChoices === undefined ? {} : { positionals: c.positionalChoices }),
  };
}

/** Each option's line of a command's help (`  --out FILE   where to write it`): its placeholder and text. */
function optionHelps(help: string): Map<string, { value?: string; text: string }> {
  const helps = new Map<string, { value?: string; text: string }>();
  for (const line of help.split("\n")) {
    const m = /^\s+(--[a-z0-9-]+)(?:[ =](\S+))?\s{2,}(\S.*)$/.exec(line);
    if (m && !helps.has(m[1]!)) helps.set(m[1]!, { ...(m[2] === undefined ? {} : { value: m[2] }), text: m[3]!.trim() });
  }
  return helps;
}

function fromSpec(spec: CommandSpec): CompletedBinary {
  return { name: spec.name, options: [...spec.options.map(fromHelped), HELP, VERSION], trailing: spec.trailing !== undefined };
}

function fromHelped(o: HelpedOption): CompletedOption {
  return { ...fromOption(o), help: o.help };
}

function fromPlain(name: string, options: readonly OptionSpec[]): CompletedBinary {
  return { name, options: [...options.map(fromOption), HELP, VERSION], trailing: false };
}

function fromOption(o: OptionSpec): CompletedOption {
  const choices = o.value === undefined ? undefined : choicesOf(o.value);
  return {
    long: o.long,
    ...(o.short === undefined ? {} : { short: o.short }),
    ...(o.value === undefined ? {} : { value: o.value }),
    ...(choices === undefined ? {} : { choices }),
    ...(o.repeatable ? { repeatable: true } : {}),
  };
}

/** A placeholder that lists its values (`echo|retail|telecom`) gives the choices. */
function choicesOf(placeholder: string): string[] | undefined {
  const parts = placeholder.split("|");
  return parts.length > 1 && parts.every((p) => /^[a-z][a-z0-9-]*$/.test(p)) ? parts : undefined;
}
