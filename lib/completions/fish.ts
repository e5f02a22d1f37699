/**
 * The fish script: `complete` lines for each binary's options, and for `stretto` its
 * subcommands, each option offered once its subcommand has been typed.
 */
import type { CompletedBinary, CompletedCommand, CompletedOption } from "./model.js";

/** A single-quoted fish word. */
function q(text: string): string {
  return `'${text.replace(/[\\']/g, "\\$&")}'`;
}

function optionLine(bin: string, o: CompletedOption, condition: string | undefined): string {
  const parts = [`complete -c ${bin}`];
  if (condition !== undefined) parts.push(`-n ${q(condition)}`);
  if (o.short !== undefined) parts.push(`-s ${o.short}`);
  parts.push(`-l ${o.long}`);
  // -x: a value from the list only; -r: a value, and files are offered for it.
  if (o.value !== undefined) parts.push(o.choices === undefined ? "-r" : `-x -a ${q(o.choices.join(" "))}`);
  if (o.help !== undefined) parts.push(`-d ${q(o.help)}`);
  return parts.join(" ");
}

function commandLines(bin: string, c: CompletedCommand, condition: string | undefined): string[] {
  const lines = c.options.map((o) => optionLine(bin, o, condition));
  if (c.positionals !== undefined) {
    lines.push(`complete -c ${bin}${condition === undefined ? "" : ` -n ${q(condition)}`} -f -a ${q(c.positionals.join(" "))}`);
  }
  return lines;
}

export function fishScript(binaries: readonly CompletedBinary[]): string {
  const lines = ["# fish completion for stretto's binaries. Load it with: stretto completions fish | source"];
  for (const b of binaries) {
    lines.push("");
    const subs = b.subcommands;
    if (subs === undefined) {
      lines.push(...commandLines(b.name, b, undefined));
      continue;
    }
    const names = subs.map((s) => s.name).join(" ");
    const atTop = `not __fish_seen_subcommand_from ${names}`;
    lines.push(...b.options.map((o) => optionLine(b.name, o, atTop)));
    for (const s of subs) {
      lines.push(`complete -c ${b.name} -f -n ${q(atTop)} -a ${s.name}${s.summary === undefined ? "" : ` -d ${q(s.summary)}`}`);
    }
    for (const s of subs) lines.push(...commandLines(b.name, s, `__fish_seen_subcommand_from ${s.name}`));
  }
  return `${lines.join("\n")}\n`;
}
