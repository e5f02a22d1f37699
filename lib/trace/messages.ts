/**
 * JSON-RPC messages as a log holds them: every entry's
 * message with its sender and time, batches flattened, raw lines skipped; and the few
 * questions every reader asks of one (its method, its id as a request or as a response).
 */
import { isObject, jsonText, own, type Json } from "./json.js";
import type { LogEntry, McpLog, Peer } from "./log-types.js";

export interface TimedMessage {
  t_ms: number;
  from: Peer;
  message: Json;
}

/** Each message of `entry`: one, the elements of a batch, or none for a raw line. */
export function entryMessages(entry: LogEntry): readonly Json[] {
  const m = entry.message;
  if (m === undefined) return [];
  return Array.isArray(m) ? m : [m];
}

/** Every message of the log with its sender and time, in log order. */
export function* messages(log: McpLog): Generator<TimedMessage> {
  for (const e of log.entries) {
    for (const message of entryMessages(e)) yield { t_ms: e.t_ms, from: e.from, message };
  }
}

// Every message of a log is asked these questions: each key is read by name (`own`).

/** The method of a request or notification (a string `method`). */
export function method(m: Json): string | undefined {
  if (!isObject(m)) return undefined;
  // A string is never an inherited member: no need to ask whether it is the message's own.
  const v = m["method"];
  return typeof v === "string" ? v : undefined;
}

/** The id of a request: a message with a method and a non-null id. */
export function requestId(m: Json): Json | undefined {
  if (!isObject(m) || typeof m["method"] !== "string") return undefined;
  const id = own(m, "id", m["id"]);
  return id === null ? undefined : id;
}

/** The id of a response: no `method` key, a `result` or a non-null `error`, a non-null id. */
export function responseId(m: Json): Json | undefined {
  if (!isObject(m) || own(m, "method", m["method"]) !== undefined) return undefined;
  const error = own(m, "error", m["error"]);
  const answers = own(m, "result", m["result"]) !== undefined || (error !== undefined && error !== null);
  if (!answers) return undefined;
  const id = own(m, "id", m["id"]);
  return id === null ? undefined : id;
}

/** The key that matches a response to its request: the id as JSON, so `1` ≠ `"1"`. */
export function idKey(id: Json): string {
  return typeof id === "number" ? String(id) : jsonText(id);
}

/** A call's id as an episode holds it: a string as is, anything else as JSON (`7`). */
export function callId(id: Json): string {
  return typeof id === "string" ? id : jsonText(id);
}
