/**
 * stretto-mcp-demo's command line (docs/demo-server.md, "Exit codes"): `-h`/`--help` or
 * `-V`/`--version` alone, or `--name value` pairs. Anything else is a usage error, answered
 * with the usage line alone. Later values win; `--hide` and `--hint` add up.
 */
import { ArgError, InvalidValue, scanArgs, type OptionSpec } from "./args.js";
import type { DemoOptions } from "../demo/options.js";
import { emptyListing } from "../demo/worlds/listing.js";
import type { WorldName } from "../demo/worlds/world.js";

export const USAGE =
  "usage: stretto-mcp-demo [--world echo|retail|telecom] [--hide TOOL] [--hint TOOL=false|none] " +
  "[--http ADDR [--require-auth VALUE]]";
export const ABOUT = "A tiny MCP server over stdio, for trying stretto-proxy.";

export type Invocation =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "usage-error" }
  | { kind: "serve"; options: DemoOptions };

function worldName(raw: string): WorldName {
  if (raw === "echo" || raw === "retail" || raw === "telecom") return raw;
  throw new InvalidValue("not a world");
}

/** `TOOL=false` lists TOOL as a write, `TOOL=none` with no hint. */
function hint(raw: string): [tool: string, readOnlyHint: false | null] {
  const eq = raw.indexOf("=");
  if (eq === -1) throw new InvalidValue("expected TOOL=false|none");
  const value = raw.slice(eq + 1);
  if (value === "false") return [raw.slice(0, eq), false];
  if (value === "none") return [raw.slice(0, eq), null];
  throw new InvalidValue("expected TOOL=false|none");
}

// Each repeats: the later value wins, or the values add up. Shell completions read this table too.
export const OPTIONS: readonly OptionSpec[] = [
  { long: "world", value: "echo|retail|telecom", repeatable: true, parse: worldName },
  { long: "hide", value: "TOOL", repeatable: true },
  { long: "hint", value: "TOOL=false|none", repeatable: true, parse: hint },
  { long: "http", value: "ADDR", repeatable: true },
  { long: "require-auth", value: "VALUE", repeatable: true },
];

export function parseDemoArgs(args: readonly string[]): Invocation {
  if (args.length === 1 && (args[0] === "-h" || args[0] === "--help")) return { kind: "help" };
  if (args.length === 1 && (args[0] === "-V" || args[0] === "--version")) return { kind: "version" };
  let values: Map<string, unknown[]>;
  try {
    // Only `--name value`: `--world=echo` names no option, and `--` is no separator here.
    const scanned = scanArgs({ options: OPTIONS, style: "plain", inlineValues: false, positionals: false }, args);
    if (scanned.trailing !== undefined) return { kind: "usage-error" };
    values = scanned.values;
  } catch (err) {
    if (err instanceof ArgError) return { kind: "usage-error" };
    throw err;
  }
  const last = <T>(long: string): T | undefined => values.get(long)?.at(-1) as T | undefined;
  const options: DemoOptions = {
    world: last<WorldName>("world") ?? "echo",
    listing: emptyListing(),
  };
  options.listing.hidden.push(...((values.get("hide") ?? []) as string[]));
  options.listing.hints.push(...((values.get("hint") ?? []) as Array<[string, false | null]>));
  const http = last<string>("http");
  if (http !== undefined) options.http = http;
  const requireAuth = last<string>("require-auth");
  if (requireAuth !== undefined) options.requireAuth = requireAuth;
  return { kind: "serve", options };
}
