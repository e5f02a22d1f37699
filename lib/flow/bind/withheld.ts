/**
 * What a flow may call (docs/flows.md, "Serve a flow"): only the flow
 * manifest's `read` tools, only those `--flow-tools` grants when given, never one the server
 * no longer lists or marks as a write, and no tool whose listed input contract differs from
 * the one the flow pinned. The server's tools are learned from the agent's own `tools/list`
 * responses only.
 */
import { contract } from "../../trace/contract.js";
import { field, isObject, type Json } from "../../trace/json.js";
import type { Flow } from "../ir/flow-types.js";

/** One tool as the server listed it. */
export interface ListedTool {
  /** `annotations.readOnlyHint`, when it is a boolean. */
  readOnlyHint?: boolean;
  /** Its input contract; absent for a tool without `inputSchema`. */
  contract?: string;
}

/** The server's tools by name (a context holds `undefined` before any `tools/list` answered). */
export type ListedTools = Map<string, ListedTool>;

/**
 * Learns the tools of one `tools/list` result (`{"tools": [...]}`), by `name`; a tool
 * without a name is not learned. With `into`, a later listing adds to (and replaces entries
 * of) an earlier one.
 */
export function learnListedTools(result: Json, into: ListedTools = new Map()): ListedTools {
  const tools = field(result, "tools");
  if (!Array.isArray(tools)) return into;
  for (const tool of tools) {
    const name = field(tool, "name");
    if (typeof name !== "string") continue;
    const listed: ListedTool = {};
    const annotations = field(tool, "annotations");
    const hint = isObject(annotations) ? field(annotations, "readOnlyHint") : undefined;
    if (typeof hint === "boolean") listed.readOnlyHint = hint;
    const c = contract(tool);
    if (c !== undefined) listed.contract = c;
    into.set(name, listed);
  }
  return into;
}

export interface WithheldContext {
  flow: Flow;
  /** `--flow-tools`, when given: the tools the flow may look up, by either name. */
  flowTools?: readonly string[];
  /** What the server listed to the agent; undefined before any `tools/list`. */
  listed?: ListedTools;
  /**
   * The tool's name on this server (unqualified, for a flow learned across servers; see
   * served-server.ts).
   * Defaults to the flow's own name for it.
   */
  ownName?: (tool: string) => string;
}

/**
 * Why the flow must leave `tool` (its name in the flow) to the agent, or undefined when it
 * may look it up. The first reason that applies, in the order of the checks below (the
 * reason is logged and shown to users, so the order decides which one they read).
 */
export function withheld(tool: string, ctx: WithheldContext): string | undefined {
  const own = ctx.ownName ? ctx.ownName(tool) : tool;
  if (ctx.flow.manifest.tools.get(tool) !== "read") return "the flow does not read it";
  if (ctx.flowTools !== undefined && !ctx.flowTools.includes(tool) && !ctx.flowTools.includes(own)) {
    return "--flow-tools does not grant it";
  }
  // Before the server listed any tool the flow trusts its manifest.
  if (ctx.listed === undefined || ctx.listed.size === 0) return undefined;
  const now = ctx.listed.get(own);
  if (now === undefined) return "the server no longer lists it";
  if (now.readOnlyHint === false) return "the server marks it as a write";
  const pinned = ctx.flow.contracts.get(tool) ?? ctx.flow.contracts.get(own);
  if (now.readOnlyHint === undefined && pinned !== undefined) return "the server no longer marks it read-only";
  if (pinned !== undefined && now.contract !== undefined && pinned !== now.contract) {
    return `its input changed since the flow was learned (${pinned} → ${now.contract})`;
  }
  return undefined;
}

/** The stderr line the first time a tool is withheld. */
export function leftToTheAgent(tool: string, why: string): string {
  return `stretto-proxy: the flow leaves ${tool} to the agent: ${why}`;
}
