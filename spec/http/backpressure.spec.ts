/**
 * Memory stays bounded whichever side floods: the server's own GET stream while the host
 * reads nothing (the stream is read only as fast as the host takes its lines), and the
 * host's notifications while the server takes none of their POSTs (past 4096 waiting, the
 * proxy stops reading the host, as it does for requests). Measured by what each side got
 * the proxy to take, not by the proxy's memory.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { accepted, result, silent, startScriptedServer, type ScriptedServer } from "../../fixtures/http/scripted-server.js";
import { floodingStream } from "../../fixtures/http/stream-behaviours.js";
import { NODE, PROXY, killAll, start } from "../helpers/processes.js";
import { initialize, initialized } from "./support.js";

const INIT = result({ protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "scripted", version: "0" } }, { "mcp-session-id": "s-b" });
const MB = 1 << 20;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const line = (m: unknown) => `${JSON.stringify(m)}\n`;

/** The process's resident memory, from /proc (Linux). */
function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m![1]) * 1024;
}

/** Polls `read` until it has not changed for `steadyMs` (or `maxMs` passed); resolves with its last value. */
async function settled(read: () => number, steadyMs: number, maxMs: number): Promise<number> {
  const until = Date.now() + maxMs;
  let last = read();
  let since = Date.now();
  while (Date.now() < until && Date.now() - since < steadyMs) {
    await pause(100);
    const now = read();
    if (now !== last) {
      last = now;
      since = Date.now();
    }
  }
  return last;
}

describe("http upstream: backpressure", function () {
  this.timeout(60_000);
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    killAll();
    await server?.close();
    server = undefined;
  });

  it("reads a flooding GET stream only as fast as the host reads", async () => {
    const event = `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x".repeat(1000) } })}\n\n`;
    const flood = floodingStream(event);
    server = await startScriptedServer({ post: { initialize: INIT, "notifications/initialized": accepted }, get: [flood.behaviour] });
    const proxy = start(NODE, [PROXY, "--upstream", server.url]);
    proxy.stdin!.write(line(initialize(1, "2025-11-25")) + line(initialized));
    // The host reads nothing: proxy.stdout is never consumed.
    await server.waitFor((s) => s.method === "GET");
    const taken = await settled(() => flood.taken(), 1_500, 20_000);
    await pause(2_000);
    assert.ok(taken < 64 * MB, `the proxy took ${(taken / MB).toFixed(1)} MB of the stream`);
    assert.ok(flood.taken() - taken < 2 * MB, "and stopped taking more");
    assert.ok(rssBytes(proxy.pid!) < 400 * MB, `RSS ${(rssBytes(proxy.pid!) / MB).toFixed(0)} MB`);
  });

  it("stops reading the host while its notifications wait for a server that takes none", async () => {
    server = await startScriptedServer({
      post: { initialize: INIT, "notifications/initialized": accepted, "notifications/progress": silent },
    });
    const proxy = start(NODE, [PROXY, "--upstream", server.url]);
    proxy.stdout!.resume();
    proxy.stdin!.on("error", () => {});
    proxy.stdin!.write(line(initialize(1, "2025-11-25")) + line(initialized));
    await server.waitFor((s) => s.method === "GET");
    const count = 60_000;
    let text = "";
    for (let i = 0; i < count; i++) {
      text += line({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: i } });
    }
    const total = Buffer.byteLength(text);
    proxy.stdin!.write(text);
    // What the proxy has not taken stays in the host's own buffer.
    await pause(2_000);
    const left = await settled(() => proxy.stdin!.writableLength, 3_000, 30_000);
    const took = total - left;
    // 4096 waiting plus 16 sent, about 100 bytes each, and the pipes' buffers.
    assert.ok(took < 2 * MB, `the proxy took ${(took / MB).toFixed(1)} of ${(total / MB).toFixed(1)} MB`);
    assert.ok(server.seen.filter((s) => s.message?.method === "notifications/progress").length <= 16);
  });
});
