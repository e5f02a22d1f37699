import { headerValue, isObject } from "../../protocol/protocol-era.js";
import { TOKEN } from "./headers.js";

interface Mirrored {
  /** The chain of `properties` keys leading to the annotated argument. */
  path: string[];
  /** The header's name: `mcp-param-<x-mcp-header>`. */
  header: string;
}

/**
 * MCP 2026-07-28 "Custom Headers from Tool Parameters": a tool's `inputSchema` may mark
 * arguments with `x-mcp-header`, and an HTTP client must mirror their values into
 * `Mcp-Param-<name>` headers on `tools/call`. The host speaks stdio and may ignore the
 * annotation, so the proxy, which is the HTTP client, learns it from the `tools/list`
 * answers it hands over and adds the headers itself.
 *
 * A tool whose annotations break the rules (an empty or non-token name, a duplicate, an
 * annotation off a plain `properties` chain) is learned without any: the spec says a client
 * excludes such a tool from the listing, which would mean rewriting the server's answer
 * (the proxy never rewrites what a server sent), so the proxy only declines to mirror for it.
 */
export class ParamHeaders {
  private readonly byTool = new Map<string, Mirrored[]>();

  /** Learns from one `tools/list` answer (the parsed JSON-RPC response). */
  learn(answer: unknown): void {
    if (!isObject(answer) || !isObject(answer["result"])) return;
    const tools = answer["result"]["tools"];
    if (!Array.isArray(tools)) return;
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool["name"] !== "string") continue;
      const mirrored = annotations(tool["inputSchema"]);
      if (mirrored === undefined || mirrored.length === 0) this.byTool.delete(tool["name"]);
      else this.byTool.set(tool["name"], mirrored);
    }
  }

  /** The `Mcp-Param-*` headers for a call of `tool` with `args`. */
  headersFor(tool: string | undefined, args: unknown): Array<[string, string]> {
    if (tool === undefined) return [];
    const mirrored = this.byTool.get(tool);
    if (mirrored === undefined) return [];
    const out: Array<[string, string]> = [];
    for (const m of mirrored) {
      const text = primitiveText(valueAt(args, m.path));
      if (text !== undefined) out.push([m.header, headerValue(text)]);
    }
    return out;
  }
}

/** The annotated arguments of a schema; undefined when an annotation breaks the rules. */
function annotations(schema: unknown): Mirrored[] | undefined {
  const found: Mirrored[] = [];
  const seen = new Set<string>();
  let valid = true;
  const walk = (node: Record<string, unknown>, path: string[]) => {
    const properties = node["properties"];
    if (!isObject(properties)) return;
    for (const [key, sub] of Object.entries(properties)) {
      if (!isObject(sub)) continue;
      const name = sub["x-mcp-header"];
      if (name !== undefined) {
        const lower = typeof name === "string" ? name.toLowerCase() : "";
        if (typeof name !== "string" || !TOKEN.test(name) || seen.has(lower) || !primitiveSchema(sub)) valid = false;
        else {
          seen.add(lower);
          found.push({ path: [...path, key], header: `mcp-param-${lower}` });
        }
      }
      walk(sub, [...path, key]);
    }
  };
  if (isObject(schema)) walk(schema, []);
  if (valid && isObject(schema) && JSON.stringify(schema).split('"x-mcp-header"').length - 1 !== found.length) {
    valid = false; // an annotation somewhere off the `properties` chain (items, oneOf, $defs, …)
  }
  return valid ? found : undefined;
}

function primitiveSchema(sub: Record<string, unknown>): boolean {
  const type = sub["type"];
  return type === undefined || type === "string" || type === "integer" || type === "boolean";
}

function valueAt(args: unknown, path: string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

function primitiveText(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number" && Number.isSafeInteger(v)) return String(v);
  return undefined;
}
