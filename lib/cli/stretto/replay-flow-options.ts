/**
 * `stretto replay --flow …`: the flow options of `stretto-proxy` (its "Flows" and "The
 * System-One model" options, and `--server-name`), taken by replay under the same names and
 * checked by the same specs, so a flow is replayed exactly as the live proxy would serve it.
 */
import { parseCommandLine, type CommandSpec, type OptionSpec } from "../args.js";
import { proxyCommand } from "../proxy-options.js";
import type { ParsedArgs as CommandArgs } from "./command.js";

const HEADINGS = new Set(["Flows", "The System-One model"]);

/** The proxy's option specs replay takes for flows. */
export const FLOW_OPTIONS: readonly OptionSpec[] = proxyCommand.options.filter((o) => HEADINGS.has(o.heading) || o.long === "server-name");

/** Their names as replay's options: those that take a value, and the flags. */
export const FLOW_VALUE_OPTIONS = FLOW_OPTIONS.filter((o) => o.value !== undefined).map((o) => `--${o.long}`);
export const FLOW_FLAG_OPTIONS = FLOW_OPTIONS.filter((o) => o.value === undefined).map((o) => `--${o.long}`);

// No trailing server command: replay's server is the log.
const spec: CommandSpec = {
  name: "stretto replay",
  version: proxyCommand.version,
  about: proxyCommand.about,
  usage: "Usage: stretto replay <log> [--flow FILE [FLOW OPTIONS]]",
  options: [...FLOW_OPTIONS],
};

/**
 * The flow options given to replay, parsed and checked as the proxy does (`--flow-threshold`
 * a number, `--flow-shadow` only with `--flow`, …): the values to hand to the built-in
 * plugins, or the usage error's first line.
 */
export function flowValues(args: CommandArgs): { values: Map<string, unknown[]> } | { error: string } {
  const argv: string[] = [];
  for (const name of FLOW_VALUE_OPTIONS) for (const v of args.lists.get(name) ?? []) argv.push(name, v);
  for (const name of FLOW_FLAG_OPTIONS) if (args.flags.has(name)) argv.push(name);
  const parsed = parseCommandLine(spec, argv);
  if (parsed.kind === "run") return { values: parsed.args.values };
  return { error: parsed.kind === "usage-error" ? parsed.text.split("\n")[0].replace(/^error: /, "") : `unexpected ${parsed.kind}` };
}
