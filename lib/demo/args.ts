import { emptyListing, type Listing } from "./worlds/listing.js";
import type { WorldName } from "./worlds/world.js";

export const USAGE =
  "usage: stretto-mcp-demo [--world echo|retail|telecom] [--hide TOOL] [--hint TOOL=false|none] " +
  "[--http ADDR [--require-auth VALUE]]";
export const ABOUT = "A tiny MCP server over stdio, for trying stretto-proxy.";

export interface DemoOptions {
  world: WorldName;
  listing: Listing;
  /** `--http ADDR`: serve Streamable HTTP on ADDR instead of stdio. */
  http?: string;
  /** `--require-auth VALUE`: the exact `Authorization` header every HTTP request needs. */
  requireAuth?: string;
}

export type Invocation =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "usage-error" }
  | { kind: "serve"; options: DemoOptions };

/**
 * The demo's arguments (docs/demo-server.md, "Exit codes"): `-h`/`--help` or `-V`/`--version` alone, or
 * flag/value pairs. Anything else is a usage error. Later flags win; `--hide` and `--hint`
 * add up.
 */
export function parseDemoArgs(args: readonly string[]): Invocation {
  if (args.length === 1 && (args[0] === "-h" || args[0] === "--help")) return { kind: "help" };
  if (args.length === 1 && (args[0] === "-V" || args[0] === "--version")) {
    return { kind: "version" };
  }
  const options: DemoOptions = { world: "echo", listing: emptyListing() };
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i];
    const value = args[i + 1];
    if (value === undefined || !apply(options, flag, value)) return { kind: "usage-error" };
  }
  return { kind: "serve", options };
}

/** Applies one flag; false when the flag or its value is not one the demo knows. */
function apply(options: DemoOptions, flag: string, value: string): boolean {
  switch (flag) {
    case "--world":
      if (value !== "echo" && value !== "retail" && value !== "telecom") return false;
      options.world = value;
      return true;
    case "--http":
      options.http = value;
      return true;
    case "--require-auth":
      options.requireAuth = value;
      return true;
    case "--hide":
      options.listing.hidden.push(value);
      return true;
    case "--hint": {
      const eq = value.indexOf("=");
      if (eq === -1) return false;
      const tool = value.slice(0, eq);
      const hint = value.slice(eq + 1);
      if (hint === "false") options.listing.hints.push([tool, false]);
      else if (hint === "none") options.listing.hints.push([tool, null]);
      else return false;
      return true;
    }
    default:
      return false;
  }
}
