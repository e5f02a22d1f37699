import { VERSION } from "../version.js";
import { requestedDelay } from "./delay.js";
import { field, isObject, stringField, type Json, type JsonObject } from "./json.js";
import {
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  rpcError,
  rpcResult,
} from "./rpc.js";
import { parseStrictJson } from "./strict-json.js";
import { discoverResult, modernVersionOf, SUPPORTED_MODERN, unsupportedVersion } from "./modern.js";
import type { World } from "./worlds/world.js";

/** The protocol version offered when the client names none. */
export const DEFAULT_PROTOCOL_VERSION = "2025-06-18";
const INSTRUCTIONS = "A demo server for stretto-proxy: two tools that echo their arguments.";

/** An answer to one message, and how long to wait before giving it (a call's `delay_ms`). */
export interface Answer {
  message: JsonObject;
  delayMs: number;
}

/**
 * The answer to one message's text, or `undefined` when it needs none (a notification, or
 * a response to a request this server never sends). Pure: the caller does the waiting,
 * which is all that time changes, so stdio can wait in line and HTTP per connection.
 */
export function answerMessage(text: string, world: World): Answer | undefined {
  const parsed = parseStrictJson(text);
  if (parsed === undefined) return now(rpcError(null, PARSE_ERROR, "Parse error"));
  const message = parsed.value;
  if (!isObject(message)) {
    // One object per line: this server has no batches.
    return now(rpcError(null, INVALID_REQUEST, "Invalid Request: expected one JSON-RPC object"));
  }
  const id = field(message, "id");
  if (id === undefined || id === null) return undefined;
  const method = stringField(message, "method");
  if (method === undefined) return undefined;
  const params = field(message, "params");
  const modern = modernVersionOf(params);
  if (modern !== undefined && !SUPPORTED_MODERN.includes(modern)) return now(unsupportedVersion(id, modern));
  const answer = answerRequest(id, method, params, world);
  return modern === undefined ? answer : complete(answer, method);
}

/** The answer to a request (legacy or modern alike). */
function answerRequest(id: Json, method: string, params: Json | undefined, world: World): Answer {
  switch (method) {
    case "server/discover":
      return now(rpcResult(id, discoverResult(INSTRUCTIONS)));
    case "initialize":
      return now(rpcResult(id, initializeResult(params)));
    case "ping":
      return now(rpcResult(id, {}));
    case "tools/list":
      return now(rpcResult(id, { tools: world.tools() }));
    case "tools/call":
      return callTool(id, params, world);
    default:
      return now(rpcError(id, METHOD_NOT_FOUND, `Method not found: ${method}`));
  }
}

function initializeResult(params: Json | undefined): JsonObject {
  return {
    // Whichever version the client asks for: the little this server does is in every one.
    // Given as `null` it stays null (only a missing field takes the default): the demo is a
    // strict test server and shows a client what it sent rather than papering over it.
    protocolVersion: orDefault(field(params, "protocolVersion"), DEFAULT_PROTOCOL_VERSION),
    capabilities: { tools: { listChanged: false } },
    serverInfo: { name: "stretto-mcp-demo", version: VERSION },
    instructions: INSTRUCTIONS,
  };
}

function callTool(id: Json, params: Json | undefined, world: World): Answer {
  const name = stringField(params, "name") ?? "";
  const args = orDefault(field(params, "arguments"), {});
  const reply = world.call(name, args);
  if (reply === undefined) return now(rpcError(id, INVALID_PARAMS, `Unknown tool: ${name}`));
  return {
    message: rpcResult(id, {
      content: [{ type: "text", text: reply.text }],
      isError: reply.isError,
    }),
    delayMs: requestedDelay(args),
  };
}

/** `value` unless it is missing; unlike `??`, a JSON `null` is kept. */
function orDefault(value: Json | undefined, fallback: Json): Json {
  return value === undefined ? fallback : value;
}

/**
 * 2026-07-28 results say they are complete (`resultType`), as opposed to asking for input;
 * a listing also says how long it may be cached, and by whom (the demo's never changes, but
 * it is told apart per client: no cache).
 */
function complete(answer: Answer, method: string): Answer {
  const result = field(answer.message, "result");
  if (!isObject(result)) return answer;
  const listing: JsonObject = method === "tools/list" ? { ttlMs: 0, cacheScope: "private" } : {};
  return { ...answer, message: { ...answer.message, result: { ...result, ...listing, resultType: "complete" } } };
}

function now(message: JsonObject): Answer {
  return { message, delayMs: 0 };
}
