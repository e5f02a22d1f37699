import { VERSION } from "../version.js";
import { field, isObject, stringField, type Json, type JsonObject } from "./json.js";

/**
 * MCP 2026-07-28 ("modern"): no `initialize` and no session; every request names its
 * revision in `params._meta`, and a client finds out what the server offers with
 * `server/discover`. The demo speaks both eras: a request without that `_meta` is answered
 * as before (legacy), one with it is answered as 2026-07-28 asks.
 */
export const MODERN_VERSION = "2026-07-28";
export const SUPPORTED_MODERN = [MODERN_VERSION];
const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
export const UNSUPPORTED_VERSION = -32022;

/** The revision a modern request names in `params._meta`, if it names one. */
export function modernVersionOf(params: Json | undefined): string | undefined {
  const meta = field(params, "_meta");
  return isObject(meta) ? stringField(meta, VERSION_KEY) : undefined;
}

/** What `server/discover` answers: the modern revisions, the capabilities, who this is. */
export function discoverResult(instructions: string): JsonObject {
  return {
    supportedVersions: SUPPORTED_MODERN,
    capabilities: { tools: { listChanged: false } },
    instructions,
    _meta: { [SERVER_INFO_KEY]: { name: "stretto-mcp-demo", version: VERSION } },
  };
}

/** The error for a revision this server does not speak, with the ones it does. */
export function unsupportedVersion(id: Json, requested: string): JsonObject {
  return {
    jsonrpc: "2.0",
    id,
    error: { code: UNSUPPORTED_VERSION, message: "Unsupported protocol version", data: { supported: SUPPORTED_MODERN, requested } },
  };
}
