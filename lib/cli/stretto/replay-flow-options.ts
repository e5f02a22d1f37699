/**
 * `stretto replay --flow …`: the flow options of `stretto-proxy` (its "Flows" and "The
 * System-One model" options, and `--server-name`), taken by replay under the same names and
 * checked by the same specs, so a flow is replayed exactly as the live proxy would serve it.
 */
import { checkTaken, type OptionSpec } from "../args.js";
import { proxyCommand } from "../proxy-options.js";
import type { ParsedArgs as CommandArgs } from "./command.js";

const HEADINGS = new Set(["Flows", "The System-One model"]);

/** The proxy's option specs replay takes for flows. */
export const FLOW_OPTIONS: readonly OptionSpec[] = proxyCommand.options.filter((o) => HEADINGS.has(o.heading) || o.long === "server-name");

/** Their names as replay's options: those that take a value, and the flags. */
export const FLOW_VALUE_OPTIONS = FLOW_OPTIONS.filter((o) => o.value !== undefined).map((o) => `--${o.long}`);
export const FLOW_FLAG_OPTIONS = FLOW_OPTIONS.filter((o) => o.value === undefined).map((o) => `--${o.long}`);

/**
 * The flow options given to replay, checked by the proxy's table as the proxy checks them
 * (`--flow-threshold` a number, `--flow-shadow` only with `--flow`, …): the values to hand to
 * the built-in plugins, or the usage error's reason.
 */
export function flowValues(args: CommandArgs): { values: Map<string, unknown[]> } | { error: string } {
  return checkTaken(FLOW_OPTIONS, args);
}
