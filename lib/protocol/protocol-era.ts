/**
 * Protocol eras (docs/http-upstream.md, "MCP 2026-07-28 and how the era is told"). MCP
 * 2026-07-28 ("modern") has no
 * `initialize`, no session id and no GET stream: every request carries its protocol version
 * in `params._meta["io.modelcontextprotocol/protocolVersion"]`, and over HTTP every POST names
 * its method (`Mcp-Method`) and, for `tools/call`, `prompts/get` and `resources/read`, its
 * target (`Mcp-Name`). Revisions up to 2025-11-25 ("legacy") open with `initialize`.
 *
 * How the era is detected: from what the host sends, message by message, never by waiting.
 * - A message whose `params._meta` names a protocol version is modern, and is sent with the
 *   modern headers (the version header is that message's own version).
 * - `initialize` is legacy: it opens a session whose id and agreed version go with every
 *   later message.
 * The session's era is the last one a host request settled, so a dual-era host that probes
 * with `server/discover` and falls back to `initialize` ends up legacy, as it should. A
 * message that settles nothing (a `ping` before anything else) leaves the era unknown.
 */
import { isObject } from "../util/is-object.js";

/** The JSON-object test, for the readers of protocol values. */
export { isObject };
export type Era = "legacy" | "modern";

export interface EraInfo {
  era: Era;
  /** The modern request's version, or the version the server agreed to in `initialize`. */
  protocolVersion?: string;
}

export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

/** What the proxy needs to know about one host line, read once. */
export interface Peek {
  /** The `method`, if the line is one JSON object with a string `method`. */
  method?: string;
  /** The id as JSON text, only for a request (a method and a non-null id). */
  idJson?: string;
  /** `params._meta["io.modelcontextprotocol/protocolVersion"]`, when a string. */
  modernVersion?: string;
  /** `params.name` (tools/call, prompts/get) or `params.uri` (resources/read). */
  name?: string;
  /** `params.name` and `params.arguments` of a `tools/call`, for `Mcp-Param-*` headers. */
  toolArguments?: unknown;
  /** For `notifications/cancelled`: the id (as JSON text) of the request it cancels. */
  cancels?: string;
}

const NAMED_BY_NAME = new Set(["tools/call", "prompts/get"]);

/** Reads what matters of a host line; non-JSON lines and batches tell nothing. */
export function peek(line: Buffer): Peek {
  let message: unknown;
  try {
    message = JSON.parse(line.toString("utf8"));
  } catch {
    return {};
  }
  if (!isObject(message) || typeof message["method"] !== "string") return {};
  const method = message["method"];
  const p: Peek = { method };
  const id = message["id"];
  if (id !== undefined && id !== null) p.idJson = JSON.stringify(id);
  const params = message["params"];
  if (!isObject(params)) return p;
  const meta = params["_meta"];
  if (isObject(meta) && typeof meta[META_PROTOCOL_VERSION] === "string") {
    p.modernVersion = meta[META_PROTOCOL_VERSION];
  }
  const name = NAMED_BY_NAME.has(method) ? params["name"] : method === "resources/read" ? params["uri"] : undefined;
  if (typeof name === "string") p.name = name;
  if (method === "tools/call") p.toolArguments = params["arguments"];
  if (method === "notifications/cancelled") {
    const requestId = params["requestId"];
    if (requestId !== undefined && requestId !== null) p.cancels = JSON.stringify(requestId);
  }
  return p;
}

/** Follows the host's messages and says when the session's era is settled or changes. */
export class EraDetector {
  private current: EraInfo | undefined;

  get info(): EraInfo | undefined {
    return this.current;
  }

  get isModern(): boolean {
    return this.current?.era === "modern";
  }

  /** Notes a host message; returns the new era when this message settled or changed it. */
  observe(p: Peek): EraInfo | undefined {
    if (p.method === "initialize") {
      if (this.current?.era === "legacy") return undefined;
      return (this.current = { era: "legacy" });
    }
    if (p.modernVersion !== undefined && p.idJson !== undefined) {
      if (this.current?.era === "modern" && this.current.protocolVersion === p.modernVersion) return undefined;
      return (this.current = { era: "modern", protocolVersion: p.modernVersion });
    }
    return undefined;
  }

  /** The server's answer to `initialize` named the agreed version. */
  agreed(version: string): EraInfo | undefined {
    if (this.current?.era !== "legacy" || this.current.protocolVersion === version) return undefined;
    return (this.current = { era: "legacy", protocolVersion: version });
  }
}

/**
 * A value for `Mcp-Name` or `Mcp-Param-*`: as is when it is plain visible ASCII (inner
 * spaces allowed, none leading or trailing), else `=?base64?…?=` of its UTF-8 bytes; a plain
 * value that looks like that sentinel is encoded too (2026-07-28 "Value Encoding").
 */
export function headerValue(value: string): string {
  const plain = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value);
  const sentinel = value.startsWith("=?base64?") && value.endsWith("?=");
  return plain && !sentinel ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}
