/**
 * What the HTTP client does beyond a plain exchange: redirects (followed, a 303 turned into a
 * GET, credentials dropped when the origin changes, at most 10), a body the server
 * compressed although nobody asked, and the user agent. One proxy session in front of a
 * redirecting loopback server (real, in this process) and the scripted server behind it.
 */
import { strict as assert } from "node:assert";
import { createServer, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import { accepted, result, startScriptedServer, type Behaviour, type ScriptedServer } from "../../fixtures/http/scripted-server.js";
import { killAll } from "../helpers/processes.js";
import { HostSession, initialize, initialized, proxyError, request } from "./support.js";

const INIT_RESULT = { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "scripted", version: "0" } };
const TOOLS = { tools: [{ name: "lookup", inputSchema: { type: "object" } }] };

/** `tools/list` answered gzip-compressed, as a server behind a misconfigured front might. */
const gzipped: Behaviour = (_req, res, seen) => {
  const text = JSON.stringify({ jsonrpc: "2.0", id: seen.message?.id, result: TOOLS });
  res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync(text));
};

/**
 * The URL the proxy is given: every request is sent on (307) to the scripted server, another
 * origin; `ping` gets a 303 there; a `tools/call` of `loop` is redirected to itself for ever.
 */
function startRedirector(target: string): Promise<{ url: string; server: Server; hops: () => number }> {
  let loops = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const m = text === "" ? undefined : (JSON.parse(text) as { method?: string; params?: { name?: string } });
      if (m?.method === "tools/call" && m.params?.name === "loop") {
        loops++;
        res.writeHead(307, { location: "/loop" }).end();
      } else if (m?.method === "ping") {
        res.writeHead(303, { location: target }).end();
      } else {
        res.writeHead(307, { location: target }).end();
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://me:secret@127.0.0.1:${port}/old`, server, hops: () => loops });
    }),
  );
}

describe("http upstream: redirects, compression, the user agent", function () {
  let scripted: ScriptedServer | undefined;
  let redirector: Server | undefined;

  after(async () => {
    killAll();
    await scripted?.close();
    redirector?.closeAllConnections();
    redirector?.close();
  });

  it("follows redirects as a browser would, drops the URL's credentials on another origin, decodes a gzip body", async () => {
    scripted = await startScriptedServer({
      post: { initialize: result(INIT_RESULT), "notifications/initialized": accepted, "tools/list": gzipped },
    });
    const r = await startRedirector(scripted.url);
    redirector = r.server;
    const host = HostSession.start(["--upstream", r.url]);
    host.send(initialize(1));
    assert.deepEqual((await host.answerTo(1))["result"], INIT_RESULT, "the 307 repeats the POST, body and all");
    host.send(initialized, request(2, "tools/list"), request(3, "ping"), request(4, "tools/call", { name: "loop", arguments: {} }));
    assert.deepEqual((await host.answerTo(2))["result"], TOOLS, "a gzip body reaches the host decoded");
    assert.equal(JSON.stringify(await host.answerTo(3)), proxyError(3, "the server answered HTTP 405 Method Not Allowed"));
    assert.equal(JSON.stringify(await host.answerTo(4)), proxyError(4, "the server could not be reached"));
    const ended = await host.end();
    assert.equal(ended.code, 0);

    const init = scripted.seen.find((s) => s.message?.method === "initialize")!;
    assert.equal(init.headers["authorization"], undefined, "credentials stay with their origin");
    assert.match(init.headers["user-agent"] ?? "", /^stretto-proxy\/\d/);
    assert.equal(init.headers["accept-encoding"], undefined, "no compression is asked for");
    const afterPing = scripted.seen.find((s) => s.method === "GET" && (s.headers["accept"] ?? "").includes("application/json"));
    assert.ok(afterPing !== undefined && afterPing.body === "", "a 303 turns the POST into a GET without a body");
    assert.equal(r.hops(), 11, "ten redirects are followed (eleven requests), then the request fails");
    assert.match(ended.stderr, /^stretto-proxy: the HTTP server could not be reached: Redirected 10 times\. Aborting\.$/m);
  });
});
