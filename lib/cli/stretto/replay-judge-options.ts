/**
 * `stretto replay --guards --confirm-judge …`: the confirmation judge's options of
 * `stretto-proxy`, taken by replay under the same names and checked by the proxy's table, so a
 * session is judged offline exactly as the live proxy judges it. Replay reads the
 * conversation from the log, so the judge needs `--guards` but not `--context` here.
 */
import { checkTaken, type OptionSpec } from "../args.js";
import { proxyCommand } from "../proxy-options.js";
import type { ParsedArgs as CommandArgs } from "./command.js";

const GUARDS = proxyCommand.options.find((o) => o.long === "guards")!;
const JUDGE: readonly OptionSpec[] = proxyCommand.options
  .filter((o) => o.long.startsWith("confirm-"))
  .map((o) => (o.long === "confirm-judge" ? { ...o, requires: ["guards"] } : o));

export const JUDGE_VALUE_OPTIONS = JUDGE.filter((o) => o.value !== undefined).map((o) => `--${o.long}`);
export const JUDGE_FLAG_OPTIONS = JUDGE.filter((o) => o.value === undefined).map((o) => `--${o.long}`);

/** The judge's options given to replay: the values for the built-in plugins, or the usage error's reason. */
export function judgeValues(args: CommandArgs): { values: Map<string, unknown[]> } | { error: string } {
  const taken = checkTaken([GUARDS, ...JUDGE], args);
  if ("error" in taken) return taken;
  taken.values.delete("guards");
  return taken;
}
