/** Shell completions for stretto's binaries, made from a description of their command lines. */
import { bashScript } from "./bash.js";
import { fishScript } from "./fish.js";
import type { CompletedBinary, Shell } from "./model.js";
import { zshScript } from "./zsh.js";

export { SHELLS, functionName, type CompletedBinary, type CompletedCommand, type CompletedOption, type Shell } from "./model.js";

export function completionScript(shell: Shell, binaries: readonly CompletedBinary[]): string {
  switch (shell) {
    case "bash":
      return bashScript(binaries);
    case "zsh":
      return zshScript(binaries);
    case "fish":
      return fishScript(binaries);
  }
}
