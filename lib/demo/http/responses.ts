import { sortedJson } from "../../util/sorted-json.js";
import type { JsonObject } from "../json.js";

/**
 * A whole response with a body. The head is written out by hand, byte for byte the same on
 * every response (`Content-Length`, `Connection: close`, then the extra headers), so a
 * client under test always sees the same bytes.
 */
export function response(status: string, headers: Array<[string, string]>, body = ""): Buffer {
  const bytes = Buffer.from(body, "utf8");
  let head = `HTTP/1.1 ${status}\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n`;
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  return Buffer.concat([Buffer.from(`${head}\r\n`, "latin1"), bytes]);
}

/** The head of an event stream; its body ends when the connection closes. */
export const EVENT_STREAM_HEAD =
  "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n" +
  "Connection: close\r\n\r\n";

export function event(message: JsonObject): string {
  return `event: message\ndata: ${sortedJson(message)}\n\n`;
}

/** A `notifications/message` log message at level info. */
export function logMessage(text: string): JsonObject {
  return { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: text } };
}
