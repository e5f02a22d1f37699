/**
 * The bash script: one function per binary and per subcommand, registered with `complete -F`.
 * It needs no bash-completion package: it reads COMP_WORDS and COMP_CWORD and fills
 * COMPREPLY. An empty answer falls back to bash's file names (`-o default`), which is what
 * a value such as a folder or a flow file wants.
 */
import { functionName, type CompletedBinary, type CompletedCommand, type CompletedOption } from "./model.js";

/** A word list in double quotes for compgen -W; option names and choices need no escaping beyond `"`, `$`, `` ` `` and `\`. */
function words(list: readonly string[]): string {
  return `"${list.join(" ").replace(/["$`\\]/g, "\\$&")}"`;
}

function optionWords(o: CompletedOption): string[] {
  return [`--${o.long}`, ...(o.short === undefined ? [] : [`-${o.short}`])];
}

/** The body that completes one command's words from index `start` on. */
function commandFunction(name: string, c: CompletedCommand, sub: boolean): string {
  const lines = [
    `${name}() {`,
    // complete -F passes the command's name as $1; a dispatcher passes where the subcommand's words start.
    `  local start=${sub ? '"$1"' : "1"} cur="\${COMP_WORDS[COMP_CWORD]}" prev="" i`,
    `  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"`,
  ];
  if (c.trailing) {
    lines.push(
      `  for ((i = start; i < COMP_CWORD; i++)); do`,
      `    if [[ "\${COMP_WORDS[i]}" == "--" ]]; then`,
      `      # The server's command: a program first, then its arguments.`,
      `      if (( i == COMP_CWORD - 1 )); then COMPREPLY=($(compgen -c -- "$cur")); else COMPREPLY=(); fi`,
      `      return`,
      `    fi`,
      `  done`,
    );
  }
  const valued = c.options.filter((o) => o.value !== undefined);
  if (valued.length > 0) {
    lines.push(`  case "$prev" in`);
    for (const o of valued) {
      const reply = o.choices === undefined ? "COMPREPLY=()" : `COMPREPLY=($(compgen -W ${words(o.choices)} -- "$cur"))`;
      lines.push(`    ${optionWords(o).join("|")}) ${reply}; return ;;`);
    }
    lines.push(`  esac`);
  }
  const all = c.options.flatMap(optionWords);
  lines.push(`  if [[ "$cur" == -* ]]; then`, `    COMPREPLY=($(compgen -W ${words(all)} -- "$cur"))`);
  if (c.positionals !== undefined) {
    lines.push(`  else`, `    COMPREPLY=($(compgen -W ${words(c.positionals)} -- "$cur"))`);
  } else {
    lines.push(`  else`, `    COMPREPLY=()`);
  }
  lines.push(`  fi`, `}`);
  return lines.join("\n");
}

/** A binary with subcommands: the first word that is no option names the subcommand. */
function dispatcher(name: string, b: CompletedBinary, subs: CompletedCommand[]): string {
  const lines = [
    `${name}() {`,
    `  local cur="\${COMP_WORDS[COMP_CWORD]}" i`,
    `  for ((i = 1; i < COMP_CWORD; i++)); do`,
    `    case "\${COMP_WORDS[i]}" in`,
    `      -*) ;;`,
  ];
  for (const s of subs) lines.push(`      ${s.name}) ${functionName(b.name, s.name)} "$((i + 1))"; return ;;`);
  lines.push(
    `      *) COMPREPLY=(); return ;;`,
    `    esac`,
    `  done`,
    `  if [[ "$cur" == -* ]]; then`,
    `    COMPREPLY=($(compgen -W ${words(b.options.flatMap(optionWords))} -- "$cur"))`,
    `  else`,
    `    COMPREPLY=($(compgen -W ${words(subs.map((s) => s.name))} -- "$cur"))`,
    `  fi`,
    `}`,
  );
  return lines.join("\n");
}

export function bashScript(binaries: readonly CompletedBinary[]): string {
  const parts = ["# bash completion for stretto's binaries. Load it with: source <(stretto completions bash)"];
  for (const b of binaries) {
    const name = functionName(b.name);
    const subs = b.subcommands;
    if (subs === undefined) {
      parts.push(commandFunction(name, b, false));
    } else {
      for (const s of subs) parts.push(commandFunction(functionName(b.name, s.name), s, true));
      parts.push(dispatcher(name, b, subs));
    }
    parts.push(`complete -o default -F ${name} ${b.name}`);
  }
  return `${parts.join("\n\n")}\n`;
}
