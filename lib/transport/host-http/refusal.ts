import type { ServerResponse } from "node:http";

/** An HTTP refusal: its status, its JSON-RPC error, and any header it needs. */
export interface Refusal {
  status: number;
  message: string;
  /** -32700 for a body that is not JSON; else by status. */
  code?: number;
  headers?: Record<string, string>;
}

export const refuse = (status: number, message: string, extra: Partial<Refusal> = {}): Refusal => ({ status, message, ...extra });

export function isRefusal(v: unknown): v is Refusal {
  return typeof v === "object" && v !== null && "status" in v && "message" in v;
}

/** `{"jsonrpc":"2.0","id":null,"error":{…}}`: -32600 for a 400, -32000 for every other status. */
export function sendRefusal(res: ServerResponse, r: Refusal): void {
  if (res.headersSent || res.destroyed) return;
  const code = r.code ?? (r.status === 400 ? -32600 : -32000);
  const body = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message: r.message } });
  res.writeHead(r.status, { "Content-Type": "application/json", ...r.headers });
  res.end(body);
}

export const TEXT = {
  token: "send Authorization: Bearer <token>, with the token stretto-proxy was given (--listen-token-file)",
  host: "the Host header must be localhost, 127.0.0.1 or [::1] with the proxy's port: without a token, stretto-proxy answers only its own address",
  origin: "a page on another site may not use stretto-proxy: without a token, only pages on this machine's loopback may",
  version: "MCP-Protocol-Version must name a revision, such as 2025-11-25",
  contentType: "a message needs Content-Type: application/json",
  notUtf8: "the body is not UTF-8",
  emptyBatch: "an empty batch",
  notMessage: "each message is a JSON-RPC request, notification or response",
  initializeAlone: "initialize comes alone, and without Mcp-Session-Id: it starts a session",
  noSessionId: "no Mcp-Session-Id: start a session with initialize",
  noSession: "no such session: it ended, or never was; start another with initialize",
  getAccept: "a GET opens an event stream: send Accept: text/event-stream",
  hostSession: "Stretto-Session names the host session: at most 128 letters, digits, and . _ : -",
  full: "stretto-proxy has as many sessions as it keeps: end one (DELETE) first",
  tooLarge: "the body is larger than 4 MiB, the most stretto-proxy reads",
  slowBody: "the body did not arrive in time",
  method: "/mcp takes POST, GET and DELETE",
  path: "stretto-proxy serves MCP at /mcp only",
} as const;
