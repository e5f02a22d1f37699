import type { Json, JsonObject } from "./json.js";

/** JSON-RPC answers as the demo writes them; `sortedJson` puts the keys in order. */
export function rpcResult(id: Json, result: Json): JsonObject {
  return { jsonrpc: "2.0", id, result };
}

export function rpcError(id: Json, code: number, message: string): JsonObject {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
