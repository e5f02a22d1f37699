/**
 * The tools a server listed: only the server's responses to the
 * client's own `tools/list` requests, matched by id (`1` ≠ `"1"`), count. A response to any
 * other request, or anything the proxy or the conversation logged, lists nothing.
 */
import { at, type Json } from "./json.js";
import type { Peer } from "./log-types.js";
import { idKey, method, requestId, responseId } from "./messages.js";

export class ToolListings {
  private readonly awaiting = new Set<string>();

  /** The tools `m` lists, if it answers a `tools/list` of the client's; else undefined. */
  listed(from: Peer, m: Json): readonly Json[] | undefined {
    if (from === "client") {
      const id = method(m) === "tools/list" ? requestId(m) : undefined;
      if (id !== undefined) this.awaiting.add(idKey(id));
      return undefined;
    }
    if (from !== "server") return undefined;
    const id = responseId(m);
    if (id === undefined || !this.awaiting.delete(idKey(id))) return undefined;
    const tools = at(m, "result", "tools");
    return Array.isArray(tools) ? tools : [];
  }
}
