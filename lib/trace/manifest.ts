/**
 * A log's tool manifest: each listed tool's kind from its
 * `readOnlyHint` annotation (`true` → read, `false` → write, none → generic, meaning
 * unknown) and its documentation. A later listing of a tool replaces the earlier one.
 */
import { at, compareCodePoints, field, isObject, type Json } from "./json.js";
import type { LogEntry, LogHeader, McpLog } from "./log-types.js";
import { entryMessages } from "./messages.js";
import { streamLog } from "./read-log.js";
import { ToolListings } from "./tool-listing.js";

export type ToolKind = "read" | "write" | "generic";

export interface ToolDoc {
  /** The tool's description as one paragraph (whitespace runs collapsed). */
  summary: string;
  /** Argument name → its description. */
  args: Record<string, string>;
}

export interface ToolManifest {
  domain: string;
  /** Tool name → kind, sorted by name. */
  tools: Record<string, ToolKind>;
  /** Tool name → its docs, for tools that have any. */
  docs: Record<string, ToolDoc>;
}

export function kindOf(m: ToolManifest, tool: string): ToolKind | undefined {
  return Object.prototype.hasOwnProperty.call(m.tools, tool) ? m.tools[tool] : undefined;
}

/** Whether `tool` is a write. False for `generic`: treat unknown kinds with care. */
export function isWrite(m: ToolManifest, tool: string): boolean {
  return kindOf(m, tool) === "write";
}

/** Collects a manifest from entries fed in log order. */
export class ManifestBuilder {
  private readonly listings = new ToolListings();
  private readonly tools = new Map<string, ToolKind>();
  private readonly docs = new Map<string, ToolDoc>();

  entry(e: LogEntry): void {
    for (const m of entryMessages(e)) {
      const listed = this.listings.listed(e.from, m);
      if (listed) for (const tool of listed) this.tool(tool);
    }
  }

  private tool(tool: Json): void {
    const name = field(tool, "name");
    if (typeof name !== "string") return;
    this.tools.set(name, toolKind(tool));
    const doc = toolDoc(tool);
    if (doc) this.docs.set(name, doc);
    else this.docs.delete(name);
  }

  /** Add what another builder collected; its tools win. */
  absorb(other: ManifestBuilder): void {
    for (const [k, v] of other.tools) this.tools.set(k, v);
    for (const [k, v] of other.docs) this.docs.set(k, v);
  }

  finish(domain: string): ToolManifest {
    return { domain, tools: sortedRecord(this.tools), docs: sortedRecord(this.docs) };
  }
}

export function manifest(log: McpLog, domain: string): ToolManifest {
  const b = new ManifestBuilder();
  for (const e of log.entries) b.entry(e);
  return b.finish(domain);
}

/** The tools every log's server listed, as one manifest; later logs win. */
export function manifestOf(logs: readonly McpLog[], domain: string): ToolManifest {
  const all = new ManifestBuilder();
  for (const log of logs) {
    const one = new ManifestBuilder();
    for (const e of log.entries) one.entry(e);
    all.absorb(one);
  }
  return all.finish(domain);
}

/** What the log at `path` lists (read as a stream), with its header. */
export async function readManifest(
  path: string,
  map?: (e: LogEntry) => LogEntry,
): Promise<{ header: LogHeader; listed: ManifestBuilder }> {
  const listed = new ManifestBuilder();
  let header: LogHeader | undefined;
  await streamLog(path, { header: (h) => (header = h), entry: map ? (e) => listed.entry(map(e)) : (e) => listed.entry(e) });
  return { header: header!, listed };
}

function toolKind(tool: Json): ToolKind {
  const hint = at(tool, "annotations", "readOnlyHint");
  return hint === true ? "read" : hint === false ? "write" : "generic";
}

function toolDoc(tool: Json): ToolDoc | undefined {
  const description = field(tool, "description");
  const summary = collapse(typeof description === "string" ? description : "");
  const args = new Map<string, string>();
  const properties = at(tool, "inputSchema", "properties");
  if (isObject(properties)) {
    for (const arg of Object.keys(properties)) {
      const d = field(properties[arg], "description");
      if (typeof d === "string") args.set(arg, collapse(d));
    }
  }
  return summary !== "" || args.size > 0 ? { summary, args: sortedRecord(args) } : undefined;
}

// Unicode White_Space, which Rust's split_whitespace splits on (JS's \s differs by U+0085, U+FEFF).
const WHITESPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** Whitespace runs as single spaces, none at either end. */
export function collapse(text: string): string {
  return text.split(WHITESPACE).filter((w) => w !== "").join(" ");
}

function sortedRecord<V>(map: Map<string, V>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const k of [...map.keys()].sort(compareCodePoints)) {
    Object.defineProperty(out, k, { value: map.get(k), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
