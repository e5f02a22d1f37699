#!/usr/bin/env node
/**
 * A fast MCP-ish echo server for the stdio benchmark. It reads newline-delimited JSON-RPC
 * from stdin and answers every request with `{"jsonrpc":"2.0","id":<id>,"result":<params>}`
 * (`initialize` gets a small InitializeResult instead); notifications get no answer. It
 * exits when stdin ends, once its answers are out.
 *
 * It has to be cheap, so that the proxy in front of it is what the figures measure: a
 * request of the usual shape (`{"jsonrpc":"2.0","id":…,"method":"…","params":…}`) is
 * answered by slicing its bytes, never by decoding or parsing a megabyte of JSON. Anything
 * else falls back to `JSON.parse`. Stdin pauses while stdout is full, so a pipelined flood
 * cannot pile up in memory here.
 */

const HEAD = Buffer.from('{"jsonrpc":"2.0","id":');
const METHOD = Buffer.from(',"method":"');
const PARAMS = Buffer.from(',"params":');
const RESULT = Buffer.from(',"result":');
const CLOSE = Buffer.from("}\n");
const EMPTY = Buffer.from("{}");
const INITIALIZED = Buffer.from(
  JSON.stringify({
    protocolVersion: "2025-11-25",
    capabilities: { tools: {} },
    serverInfo: { name: "stretto-bench-echo", version: "0.0.0" },
  }),
);
const QUOTE = 0x22;

let pending: Buffer[] = [];

process.stdin.on("data", (chunk: Buffer) => {
  let start = 0;
  for (;;) {
    const nl = chunk.indexOf(0x0a, start);
    if (nl === -1) break;
    let line = chunk.subarray(start, nl);
    if (pending.length > 0) {
      pending.push(line);
      line = Buffer.concat(pending);
      pending = [];
    }
    answer(line);
    start = nl + 1;
  }
  if (start < chunk.length) pending.push(chunk.subarray(start));
});

process.stdin.on("end", () => {
  if (pending.length > 0) answer(Buffer.concat(pending));
  pending = [];
  if (process.stdout.writableLength === 0) process.exit(0);
  process.stdout.once("drain", () => process.exit(0));
});

process.stdout.on("error", () => process.exit(0)); // the reader went away: nothing to answer

/** Answers one line (without its `\n`). */
function answer(line: Buffer): void {
  let end = line.length;
  if (end > 0 && line[end - 1] === 0x0d) end--;
  const fast = slice(line.subarray(0, end));
  if (fast) return send(fast.id, fast.result);
  let msg: unknown;
  try {
    msg = JSON.parse(line.toString("utf8"));
  } catch {
    return; // not JSON: a real server would log it on stderr; the benchmark never sends it
  }
  if (msg === null || typeof msg !== "object" || !("id" in msg) || !("method" in msg)) return;
  const { id, method, params } = msg as { id: unknown; method: unknown; params?: unknown };
  const result = method === "initialize" ? INITIALIZED : Buffer.from(JSON.stringify(params ?? {}));
  send(Buffer.from(JSON.stringify(id)), result);
}

/** The id and result of a request of the usual shape, by byte offsets; undefined if not. */
function slice(body: Buffer): { id: Buffer; result: Buffer } | undefined {
  if (body.length < HEAD.length + 12 || !HEAD.equals(body.subarray(0, HEAD.length))) return undefined;
  const head = body.subarray(0, 256);
  const idEnd = head.indexOf(METHOD, HEAD.length);
  if (idEnd === -1) return undefined;
  const methodStart = idEnd + METHOD.length;
  const methodEnd = head.indexOf(QUOTE, methodStart);
  if (methodEnd === -1 || body[body.length - 1] !== 0x7d) return undefined;
  const id = body.subarray(HEAD.length, idEnd);
  const method = body.subarray(methodStart, methodEnd).toString("latin1");
  if (method === "initialize") return { id, result: INITIALIZED };
  const after = methodEnd + 1;
  if (after === body.length - 1) return { id, result: EMPTY };
  if (!PARAMS.equals(body.subarray(after, after + PARAMS.length))) return undefined;
  return { id, result: body.subarray(after + PARAMS.length, body.length - 1) };
}

function send(id: Buffer, result: Buffer): void {
  const out = process.stdout;
  out.cork();
  out.write(HEAD);
  out.write(id);
  out.write(RESULT);
  out.write(result);
  const ok = out.write(CLOSE);
  out.uncork();
  if (!ok && !process.stdin.isPaused()) {
    process.stdin.pause();
    out.once("drain", () => process.stdin.resume());
  }
}
