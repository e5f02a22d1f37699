import { createServer, type Server, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { sortedJson } from "../../util/sorted-json.js";
import { answerMessage, DEFAULT_PROTOCOL_VERSION } from "../answer.js";
import { field, stringField, type Json, type JsonObject } from "../json.js";
import { modernVersionOf } from "../modern.js";
import { parseStrictJson } from "../strict-json.js";
import type { World } from "../worlds/world.js";
import type { ListenAddress } from "./listen-address.js";
import { RequestReader, type HttpRequest } from "./request-reader.js";
import { EVENT_STREAM_HEAD, event, logMessage, response } from "./responses.js";
import { Sessions } from "./sessions.js";

/** How long a GET stream stays open when its session is never deleted. */
const STREAM_HOLD_MS = 60_000;
const lossy = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

export interface HttpDemoOptions {
  /** The exact `Authorization` value every request must carry, if any. */
  requireAuth?: string;
}

/**
 * The demo over Streamable HTTP at `/mcp` (docs/demo-server.md): a strict server for
 * testing clients. One request per connection, `Connection: close` on every response.
 * Every message after `initialize` must name its live session and the version agreed;
 * a tool call is answered on an event stream with a log message first; a GET stream sends
 * one message of the server's own and stays open until its session is deleted.
 *
 * Built on node:net rather than node:http because the demo's documented head parsing (header
 * lines without a colon skipped, a head cut off by the end of input still answered, a short
 * body dropped without a reply) is more forgiving than node:http's parser allows.
 */
export function serveHttp(
  world: World,
  address: ListenAddress,
  options: HttpDemoOptions = {},
): Promise<Server> {
  const sessions = new Sessions();
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    serveConnection(socket, world, sessions, options).catch(() => socket.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host: address.host, port: address.port }, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

async function serveConnection(
  socket: Socket,
  world: World,
  sessions: Sessions,
  options: HttpDemoOptions,
): Promise<void> {
  socket.on("error", () => socket.destroy()); // a peer that goes away is no concern of ours
  const request = await readRequest(socket);
  if (request === undefined) {
    socket.destroy();
    return;
  }
  const reply = (status: string, headers: Array<[string, string]> = [], body = "") =>
    close(socket, response(status, headers, body));
  const path = request.path.split("?")[0];
  if (path !== "/mcp") return reply("404 Not Found");
  const auth = options.requireAuth;
  if (auth !== undefined && request.headers.get("authorization") !== auth) {
    return reply("401 Unauthorized");
  }
  const sessionId = request.headers.get("mcp-session-id");
  switch (request.method) {
    case "POST":
      return post(request, sessionId, socket, world, sessions, reply);
    case "GET": {
      if (sessions.version(sessionId) === undefined) return reply("404 Not Found");
      socket.write(EVENT_STREAM_HEAD);
      socket.write(event(logMessage("hello from the server's own stream")));
      await untilDeleted(socket, sessions, sessionId!);
      return close(socket);
    }
    case "DELETE":
      if (sessionId !== undefined) sessions.delete(sessionId);
      return reply("200 OK");
    default:
      return reply("405 Method Not Allowed", [["Allow", "GET, POST, DELETE"]]);
  }
}

async function post(
  request: HttpRequest,
  sessionId: string | undefined,
  socket: Socket,
  world: World,
  sessions: Sessions,
  reply: (status: string, headers?: Array<[string, string]>, body?: string) => void,
): Promise<void> {
  const text = lossy.decode(request.body);
  const message = parseStrictJson(text)?.value ?? null;
  const method = stringField(message, "method");
  if (method === "initialize") {
    const answer = answerMessage(text, world);
    if (answer === undefined) return reply("400 Bad Request"); // no id: nothing to answer
    const agreed = stringField(field(answer.message, "result"), "protocolVersion");
    const id = sessions.open(agreed ?? DEFAULT_PROTOCOL_VERSION);
    return reply(
      "200 OK",
      [
        ["Content-Type", "application/json"],
        ["Mcp-Session-Id", id],
      ],
      sortedJson(answer.message),
    );
  }
  // A 2026-07-28 message has no session: it names its revision, method and target itself.
  const modern = modernVersionOf(field(message, "params"));
  if (modern !== undefined && sessionId === undefined) {
    const problem = modernHeaderProblem(request, modern, method);
    if (problem !== undefined) return reply("400 Bad Request", [["Content-Type", "application/json"]], sortedJson(problem));
    return answerOne(text, method, message, socket, world, reply);
  }
  // Everything later names a live session and the version agreed for it.
  const version = sessions.version(sessionId);
  if (version === undefined) {
    return reply(sessionId === undefined ? "400 Bad Request" : "404 Not Found");
  }
  if (request.headers.get("mcp-protocol-version") !== version) return reply("400 Bad Request");
  return answerOne(text, method, message, socket, world, reply);
}

/** Answers one message: 202 for a notification, an event stream for a call, else JSON. */
async function answerOne(
  text: string,
  method: string | undefined,
  message: Json,
  socket: Socket,
  world: World,
  reply: (status: string, headers?: Array<[string, string]>, body?: string) => void,
): Promise<void> {
  const answer = answerMessage(text, world);
  if (answer === undefined) return reply("202 Accepted");
  if (answer.delayMs > 0) await sleep(answer.delayMs);
  if (method === "tools/call") {
    const name = stringField(field(message, "params"), "name") ?? "";
    socket.write(EVENT_STREAM_HEAD);
    socket.write(event(logMessage(`calling ${name}`)));
    socket.write(event(answer.message));
    return close(socket);
  }
  return reply("200 OK", [["Content-Type", "application/json"]], sortedJson(answer.message));
}

/**
 * 2026-07-28's header rules: `MCP-Protocol-Version` must be the revision the message names
 * and `Mcp-Method` its method; either wrong is a 400 with a JSON-RPC error naming it.
 */
function modernHeaderProblem(request: HttpRequest, version: string, method: string | undefined): JsonObject | undefined {
  const id = field(parseStrictJson(lossy.decode(request.body))?.value ?? null, "id") ?? null;
  const mismatch = (what: string) => ({ jsonrpc: "2.0", id, error: { code: -32600, message: `HeaderMismatch: ${what}` } });
  if (request.headers.get("mcp-protocol-version") !== version) return mismatch("MCP-Protocol-Version is not the revision in _meta");
  if (method !== undefined && request.headers.get("mcp-method") !== method) return mismatch("Mcp-Method is not the message's method");
  return undefined;
}

/** The request, or undefined when the connection is to be dropped without a reply. */
function readRequest(socket: Socket): Promise<HttpRequest | undefined> {
  return new Promise((resolve) => {
    const reader = new RequestReader();
    const settle = (state: ReturnType<RequestReader["push"]>) => {
      if (state.state === "incomplete") return;
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.off("close", onClose);
      // Later bytes (none in a well-behaved request) are read and ignored, so closing
      // never finds unread data and resets the connection under the reply.
      socket.on("data", () => {});
      resolve(state.state === "complete" ? state.request : undefined);
    };
    const onData = (chunk: Buffer) => settle(reader.push(chunk));
    const onEnd = () => settle(reader.end());
    const onClose = () => resolve(undefined);
    socket.on("data", onData);
    socket.on("end", onEnd);
    socket.on("close", onClose);
  });
}

/** Waits until the session is deleted, the hold time passes, or the peer goes away. */
function untilDeleted(socket: Socket, sessions: Sessions, id: string): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stopWatching();
      clearTimeout(timer);
      socket.off("close", done);
      resolve();
    };
    const stopWatching = sessions.onDelete(id, done);
    const timer = setTimeout(done, STREAM_HOLD_MS);
    socket.on("close", done);
  });
}

/**
 * Sends the last bytes, then closes the connection entirely (no half-open socket), so a
 * client sees the end of the response as the end of the connection.
 */
function close(socket: Socket, last?: Buffer): void {
  if (socket.destroyed) return;
  const destroy = () => socket.destroy();
  if (last === undefined) socket.end(destroy);
  else socket.end(last, destroy);
}
