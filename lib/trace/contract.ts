/**
 * A listed tool's input contract: each argument of its
 * `inputSchema` as `name:type`, `!` when required, sorted, joined by `, `. A flow pins the
 * contracts of the tools it learned from and stops looking up a tool whose contract changed.
 */
import { compareCodePoints, field, isObject, type Json } from "./json.js";
import type { McpLog } from "./log-types.js";
import { messages } from "./messages.js";
import { ToolListings } from "./tool-listing.js";

/** `limit:integer|null, order_id:string!, x:any`; undefined for a tool without a schema. */
export function contract(tool: Json): string | undefined {
  const schema = field(tool, "inputSchema");
  if (schema === undefined) return undefined;
  const required = new Set<string>();
  const listed = field(schema, "required");
  if (Array.isArray(listed)) for (const r of listed) if (typeof r === "string") required.add(r);
  const properties = field(schema, "properties");
  const args: string[] = [];
  if (isObject(properties)) {
    for (const name of Object.keys(properties)) {
      args.push(`${name}:${typeName(field(properties[name], "type"))}${required.has(name) ? "!" : ""}`);
    }
  }
  return args.sort(compareCodePoints).join(", ");
}

function typeName(t: Json | undefined): string {
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string").join("|");
  return "any";
}

/** The contract of every tool the logs' servers listed; a later listing replaces one. */
export function contractsOf(logs: readonly McpLog[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const log of logs) {
    const listings = new ToolListings();
    for (const { from, message } of messages(log)) {
      for (const tool of listings.listed(from, message) ?? []) {
        const name = field(tool, "name");
        const c = contract(tool);
        if (typeof name === "string" && c !== undefined) out.set(name, c);
      }
    }
  }
  return new Map([...out].sort(([a], [b]) => compareCodePoints(a, b)));
}
