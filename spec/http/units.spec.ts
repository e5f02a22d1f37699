/**
 * The HTTP upstream's pure parts: SSE reading, handing lines over (whole lines),
 * `--upstream-header`, era detection and the 2026-07-28 header rules.
 */
import { strict as assert } from "node:assert";
import { EraDetector, headerValue, peek } from "../../lib/protocol/protocol-era.js";
import { errorLine } from "../../lib/transport/http/errors.js";
import { hostLineFromBytes, hostLineFromText } from "../../lib/transport/http/hand-over.js";
import { resolveUpstreamHeaders } from "../../lib/transport/http/headers.js";
import { ParamHeaders } from "../../lib/transport/http/param-headers.js";
import { SseReader } from "../../lib/transport/http/sse.js";
import { HttpUpstream } from "../../lib/transport/http/http-upstream.js";
import { accepted, jsonText, result, startScriptedServer } from "../../fixtures/http/scripted-server.js";

function readAll(chunks: string[]): { events: Array<[string | undefined, string]>; reader: SseReader } {
  const events: Array<[string | undefined, string]> = [];
  const reader = new SseReader((data, id) => events.push([id, data]));
  for (const c of chunks) reader.feed(Buffer.from(c, "utf8"));
  reader.end();
  return { events, reader };
}

describe("http upstream: pieces", () => {
  describe("reads server-sent events", () => {
    const VECTOR = ': a comment\nretry\nevent: message\nid: 7\ndata: {"a":1}\n\ndata: {"b":\ndata: 2}\n\ndata: cut off';
    const EXPECTED: Array<[string, string]> = [
      ["7", '{"a":1}'],
      ["7", '{"b":\n2}'],
      ["7", "cut off"],
    ];

    it("reads the reference vector: ids that stick, comments skipped, data joined", () => {
      assert.deepEqual(readAll([VECTOR]).events, EXPECTED);
    });

    it("gives the same however the bytes are cut, CRLF included", () => {
      for (let size = 1; size <= 7; size++) {
        const chunks: string[] = [];
        for (let i = 0; i < VECTOR.length; i += size) chunks.push(VECTOR.slice(i, i + size));
        assert.deepEqual(readAll(chunks).events, EXPECTED, `chunks of ${size}`);
      }
      assert.deepEqual(readAll([VECTOR.replace(/\n/g, "\r\n")]).events, EXPECTED);
    });

    it("keeps the id and retry of a priming event, whose data is empty", () => {
      const { events, reader } = readAll(["id: p-1\nretry: 250\ndata: \n\n"]);
      assert.deepEqual(events, [["p-1", ""]]);
      assert.equal(reader.lastEventId, "p-1");
      assert.equal(reader.retryMs, 250);
    });

    it("decodes UTF-8 split across chunks", () => {
      const bytes = Buffer.from('data: {"t":"café ☕"}\n\n', "utf8");
      const events: string[] = [];
      const reader = new SseReader((data) => events.push(data));
      for (const b of bytes) reader.feed(Buffer.from([b]));
      reader.end();
      assert.deepEqual(events, ['{"t":"café ☕"}']);
    });
  });

  describe("hands whole lines over", () => {
    it("ends each line with one `\\n` and sends nothing for an empty piece", () => {
      assert.equal(hostLineFromText('{"a":1}')?.toString(), '{"a":1}\n');
      assert.equal(hostLineFromText("  \n\t")?.toString(), undefined);
      assert.equal(hostLineFromText("")?.toString(), undefined);
      assert.equal(hostLineFromBytes(Buffer.from(' {"a":1}\r\n'))?.toString(), '{"a":1}\n');
      assert.equal(hostLineFromBytes(Buffer.from("\r\n")), undefined);
    });

    it("removes only the line breaks from JSON, and turns them into spaces elsewhere", () => {
      assert.equal(hostLineFromText('{"b":\n2,\r\n "z" : [1,\n2]}')?.toString(), '{"b":2, "z" : [1,2]}\n');
      assert.equal(hostLineFromText("not\nJSON")?.toString(), "not JSON\n");
      assert.equal(hostLineFromText("not\r\nJSON\neither")?.toString(), "not JSON either\n");
    });

    it("passes a body with no line break byte for byte, invalid UTF-8 included", () => {
      const body = Buffer.concat([Buffer.from('{"x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
      assert.deepEqual(hostLineFromBytes(body), Buffer.concat([body, Buffer.from("\n")]));
    });

    it("writes the proxy's own errors in natural key order", () => {
      assert.equal(
        errorLine("7", "the server could not be reached").toString(),
        '{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"stretto-proxy: the server could not be reached"}}\n',
      );
      assert.equal(
        errorLine('"a"', "the server's answer was cut off").toString(),
        '{"jsonrpc":"2.0","id":"a","error":{"code":-32000,"message":"stretto-proxy: the server\'s answer was cut off"}}\n',
      );
    });
  });

  describe("takes the upstream's headers from the environment", () => {
    it("resolves NAME=VAR, split at the first `=`, names lowercased", () => {
      assert.deepEqual(resolveUpstreamHeaders([], {}), []);
      assert.deepEqual(resolveUpstreamHeaders(["Authorization=AUTH"], { AUTH: "Bearer t" }), [["authorization", "Bearer t"]]);
      assert.deepEqual(resolveUpstreamHeaders(["X-Key=A=B"], { "A=B": "v" }), [["x-key", "v"]]);
      assert.deepEqual(resolveUpstreamHeaders(["X-Empty=E"], { E: "" }), [["x-empty", ""]]);
    });

    it("says exactly what is wrong", () => {
      assert.throws(
        () => resolveUpstreamHeaders(["Authorization"], {}),
        { message: "--upstream-header takes NAME=VAR, the header and the environment variable holding its value" },
      );
      assert.throws(
        () => resolveUpstreamHeaders(["Authorization=STRETTO_NOT_SET"], {}),
        { message: "the environment variable STRETTO_NOT_SET, for the header Authorization, is not set" },
      );
      assert.throws(() => resolveUpstreamHeaders(["Bad Name=V"], { V: "x" }), /cannot be the name of an HTTP header/);
      assert.throws(() => resolveUpstreamHeaders(["X=V"], { V: "a\r\nInjected: yes" }), /holds a line break or another control character/);
    });
  });

  describe("tells the protocol eras apart", () => {
    const line = (m: unknown) => Buffer.from(JSON.stringify(m));
    const modern = (id: number, method: string, params: Record<string, unknown> = {}) =>
      line({
        jsonrpc: "2.0",
        id,
        method,
        params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
      });

    it("reads what each message says about itself", () => {
      assert.deepEqual(peek(line({ jsonrpc: "2.0", id: 1, method: "tools/list" })), { method: "tools/list", idJson: "1" });
      assert.deepEqual(peek(line({ jsonrpc: "2.0", method: "notifications/initialized" })), { method: "notifications/initialized" });
      assert.deepEqual(peek(line({ jsonrpc: "2.0", id: null, method: "x" })), { method: "x" });
      assert.deepEqual(peek(line({ jsonrpc: "2.0", id: 1, result: {} })), {});
      assert.deepEqual(peek(Buffer.from("not json")), {});
      assert.deepEqual(peek(line([{ jsonrpc: "2.0", id: 1, method: "ping" }])), {});
      const call = peek(modern(2, "tools/call", { name: "get_weather", arguments: { region: "eu" } }));
      assert.equal(call.modernVersion, "2026-07-28");
      assert.equal(call.name, "get_weather");
      assert.deepEqual(call.toolArguments, { region: "eu" });
      assert.equal(peek(modern(3, "resources/read", { uri: "file:///a b" })).name, "file:///a b");
      assert.equal(peek(modern(4, "prompts/get", { name: "p" })).name, "p");
      assert.equal(peek(modern(5, "tools/list", { name: "no" })).name, undefined);
      assert.equal(peek(line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "r1" } })).cancels, '"r1"');
    });

    it("settles the era from the host's requests, the last one winning", () => {
      const eras = new EraDetector();
      assert.equal(eras.observe(peek(line({ jsonrpc: "2.0", id: 1, method: "ping" }))), undefined);
      assert.deepEqual(eras.observe(peek(modern(2, "server/discover"))), { era: "modern", protocolVersion: "2026-07-28" });
      assert.equal(eras.observe(peek(modern(3, "tools/list"))), undefined, "no change, no news");
      // A dual-era host that probed and fell back.
      assert.deepEqual(eras.observe(peek(line({ jsonrpc: "2.0", id: 4, method: "initialize", params: {} }))), { era: "legacy" });
      assert.deepEqual(eras.agreed("2025-11-25"), { era: "legacy", protocolVersion: "2025-11-25" });
      assert.equal(eras.agreed("2025-11-25"), undefined);
      assert.deepEqual(eras.info, { era: "legacy", protocolVersion: "2025-11-25" });
    });

    it("encodes Mcp-Name and Mcp-Param values as 2026-07-28 says", () => {
      // The spec's own table ("Value Encoding").
      assert.equal(headerValue("us-west1"), "us-west1");
      assert.equal(headerValue("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
      assert.equal(headerValue(" padded "), "=?base64?IHBhZGRlZCA=?=");
      assert.equal(headerValue("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
      assert.equal(headerValue("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
      assert.equal(headerValue("file:///projects/myapp/config.json"), "file:///projects/myapp/config.json");
    });

    it("mirrors x-mcp-header arguments into Mcp-Param headers", () => {
      const params = new ParamHeaders();
      params.learn({
        jsonrpc: "2.0",
        id: 1,
        result: {
          tools: [
            {
              name: "execute_sql",
              inputSchema: {
                type: "object",
                properties: {
                  region: { type: "string", "x-mcp-header": "Region" },
                  query: { type: "string" },
                  opts: { type: "object", properties: { dry: { type: "boolean", "x-mcp-header": "Dry" }, n: { type: "integer", "x-mcp-header": "N" } } },
                },
              },
            },
            { name: "broken", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "bad name" } } } },
            { name: "twice", inputSchema: { type: "object", properties: { a: { "x-mcp-header": "X" }, b: { "x-mcp-header": "x" } } } },
            { name: "nested", inputSchema: { type: "object", properties: { list: { type: "array", items: { type: "object", properties: { a: { "x-mcp-header": "A" } } } } } } },
          ],
        },
      });
      assert.deepEqual(params.headersFor("execute_sql", { region: "us-west1", query: "SELECT 1", opts: { dry: true, n: 42 } }), [
        ["mcp-param-region", "us-west1"],
        ["mcp-param-dry", "true"],
        ["mcp-param-n", "42"],
      ]);
      assert.deepEqual(params.headersFor("execute_sql", { region: "Zürich", opts: { n: 1.5 } }), [["mcp-param-region", "=?base64?WsO8cmljaA==?="]]);
      assert.deepEqual(params.headersFor("execute_sql", { region: null }), []);
      assert.deepEqual(params.headersFor("broken", { a: "x" }), []);
      assert.deepEqual(params.headersFor("twice", { a: "x", b: "y" }), []);
      assert.deepEqual(params.headersFor("nested", { list: [{ a: "x" }] }), []);
      assert.deepEqual(params.headersFor("unknown", { a: "x" }), []);
    });
  });

  describe("the transport in-process", () => {
    it("takes lines however they are written, hands whole lines back, then ends with 0", async () => {
      const server = await startScriptedServer({
        post: {
          initialize: result({ protocolVersion: "2025-06-18" }, { "mcp-session-id": "u-1" }),
          "notifications/initialized": accepted,
          "no/newline": jsonText('{"jsonrpc":"2.0","id":2,"result":{}}'),
        },
      });
      const reports: string[] = [];
      const eras: unknown[] = [];
      const upstream = new HttpUpstream({ url: server.url, report: (m) => reports.push(m), onEra: (e) => eras.push(e) });
      const chunks: Buffer[] = [];
      upstream.output.on("data", (c: Buffer) => chunks.push(c));
      const ended = new Promise<void>((r) => upstream.output.once("end", () => r()));
      const text = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })}\r\n\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n{"jsonrpc":"2.0","id":2,"method":"no/newline"}`;
      for (let i = 0; i < text.length; i += 7) upstream.input.write(Buffer.from(text.slice(i, i + 7)));
      upstream.input.end();
      await ended;
      assert.deepEqual(await upstream.exited, { code: 0, signal: null });
      assert.deepEqual(
        chunks.map((c) => c.toString()),
        ['{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}\n', '{"jsonrpc":"2.0","id":2,"result":{}}\n'],
      );
      assert.deepEqual(eras, [{ era: "legacy" }, { era: "legacy", protocolVersion: "2025-06-18" }]);
      assert.deepEqual(reports, []);
      assert.deepEqual(
        server.seen.map((x) => `${x.method} ${x.body}`),
        [
          `POST ${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })}`,
          `POST ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}`,
          ...server.seen.slice(2).map((x) => `${x.method} ${x.body}`),
        ],
      );
      // (The GET stream may or may not have got going before the end: it is not waited for.)
      assert.deepEqual(server.seen.slice(2).map((x) => x.method).filter((m) => m !== "GET").sort(), ["DELETE", "POST"]);
      assert.equal(server.seen.find((x) => x.method === "POST" && x.body.includes("no/newline"))?.body, '{"jsonrpc":"2.0","id":2,"method":"no/newline"}');
      await server.close();
    });
  });
});
