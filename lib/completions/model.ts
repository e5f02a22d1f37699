/**
 * What a shell needs to complete a binary, whatever its parser: its options (the value a
 * value option takes, and its choices when they are a few words), its subcommands, and
 * whether a server command follows `--`. The CLI fills this in from the same option
 * tables its `--help` is printed from.
 */
export interface CompletedOption {
  /** Without dashes: `record`. */
  long: string;
  short?: string;
  /** The value's placeholder (`DIR`); absent for a flag. */
  value?: string;
  /** The words the value may be; absent when it is a file, a name or a number. */
  choices?: readonly string[];
  help?: string;
  repeatable?: boolean;
}

export interface CompletedCommand {
  name: string;
  summary?: string;
  options: CompletedOption[];
  /** A command after `--` (`stretto-proxy -- npx …`). */
  trailing: boolean;
  /** Words its positionals are chosen from (`stretto help <command>`); else files. */
  positionals?: readonly string[];
}

export interface CompletedBinary extends CompletedCommand {
  subcommands?: CompletedCommand[];
}

export type Shell = "bash" | "zsh" | "fish";
export const SHELLS: readonly Shell[] = ["bash", "zsh", "fish"];

/** `stretto-proxy` → `stretto_proxy`: a name fit for a shell function. */
export function functionName(...parts: string[]): string {
  return `_${parts.map((p) => p.replace(/[^A-Za-z0-9]/g, "_")).join("__")}`;
}
