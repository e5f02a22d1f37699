/**
 * The zsh script: an `_arguments` spec per binary and per subcommand. It works both ways zsh
 * loads completions: sourced after compinit (it calls compdef), or saved as `_stretto` in a
 * folder of `fpath` (the `#compdef` line; the last line then runs the completion itself).
 */
import { functionName, type CompletedBinary, type CompletedCommand, type CompletedOption } from "./model.js";

/** Text inside a single-quoted zsh word. */
function quoted(text: string): string {
  return text.replaceAll("'", "'\\''");
}

/** A description in an `_arguments` spec, where brackets and colons mean something. */
function described(help: string | undefined): string {
  if (help === undefined) return "";
  return `[${help.replace(/\[/g, "(").replace(/\]/g, ")")}]`;
}

function optionSpec(o: CompletedOption): string {
  const repeat = o.repeatable ? "*" : "";
  const value =
    o.value === undefined
      ? ""
      : `:${o.value.replace(/:/g, ";")}:${o.choices === undefined ? "_files" : `(${o.choices.join(" ")})`}`;
  const rest = `${described(o.help)}${value}`;
  if (o.short === undefined) return `'${quoted(`${repeat}--${o.long}${rest}`)}'`;
  // Both spellings of one option, each excluding the other.
  const exclude = repeat === "" ? `(-${o.short} --${o.long})` : "";
  return `'${quoted(exclude)}'${repeat === "" ? "" : "'*'"}{-${o.short},--${o.long}}'${quoted(rest)}'`;
}

function argumentsCall(c: CompletedCommand): string {
  const specs = c.options.map(optionSpec);
  if (c.trailing) specs.push(`'*::server command:_normal'`);
  else if (c.positionals !== undefined) specs.push(`'*:argument:(${c.positionals.join(" ")})'`);
  else specs.push(`'*:file:_files'`);
  return `_arguments -S \\\n    ${specs.join(" \\\n    ")}`;
}

function binaryFunction(b: CompletedBinary): string {
  const name = functionName(b.name);
  const subs = b.subcommands;
  if (subs === undefined) return `${name}() {\n  ${argumentsCall(b)}\n}`;
  const described = subs.map((s) => `'${quoted(`${s.name.replace(/:/g, "\\:")}:${s.summary ?? ""}`)}'`);
  const cases = subs.map((s) => `    ${s.name})\n      ${argumentsCall(s).replaceAll("\n", "\n    ")}\n      ;;`);
  return [
    `${name}() {`,
    `  local -a commands`,
    `  commands=(\n    ${described.join("\n    ")}\n  )`,
    `  if (( CURRENT == 2 )); then`,
    `    if [[ $PREFIX == -* ]]; then compadd -- ${b.options.flatMap((o) => [`--${o.long}`, ...(o.short === undefined ? [] : [`-${o.short}`])]).join(" ")}; else _describe -t commands 'command' commands; fi`,
    `    return`,
    `  fi`,
    `  local cmd=$words[2]`,
    `  shift words`,
    `  (( CURRENT-- ))`,
    `  case $cmd in`,
    ...cases,
    `  esac`,
    `}`,
  ].join("\n");
}

export function zshScript(binaries: readonly CompletedBinary[]): string {
  const names = binaries.map((b) => b.name);
  const cases = binaries.map((b) => `    ${b.name}) ${functionName(b.name)} "$@" ;;`);
  return [
    `#compdef ${names.join(" ")}`,
    "# zsh completion for stretto's binaries. Load it with: source <(stretto completions zsh)",
    "# (after compinit), or save it as _stretto in a folder of $fpath.",
    "",
    ...binaries.map(binaryFunction).flatMap((f) => [f, ""]),
    `_stretto_completions() {`,
    `  case $service in`,
    ...cases,
    `  esac`,
    `}`,
    "",
    `if [[ $zsh_eval_context[-1] == loadautofunc ]]; then`,
    `  _stretto_completions "$@"`,
    `else`,
    `  compdef _stretto_completions ${names.join(" ")}`,
    `fi`,
    "",
  ].join("\n");
}
