import assert from "node:assert/strict";
import { answerMessage } from "../../lib/demo/answer.js";
import { parseDemoArgs } from "../../lib/cli/stretto-mcp-demo-args.js";
import { requestedDelay } from "../../lib/demo/delay.js";
import { mcpUrl, parseListenAddress } from "../../lib/demo/http/listen-address.js";
import { RequestReader } from "../../lib/demo/http/request-reader.js";
import { Sessions } from "../../lib/demo/http/sessions.js";
import { parseStrictJson } from "../../lib/demo/strict-json.js";
import { echoWorld } from "../../lib/demo/worlds/echo.js";
import { shopAnswer } from "../../lib/demo/worlds/retail.js";

const nested = (n: number) => "[".repeat(n) + "]".repeat(n);

describe("the demo's pure parts", () => {
  describe("answerMessage", () => {
    it("answers with the delay a call asks for, and waits for nothing else", () => {
      const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup","arguments":{"delay_ms":25}}}';
      assert.equal(answerMessage(call, echoWorld)?.delayMs, 25);
      // An unknown tool is refused at once, whatever it asks.
      const unknown = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"delay_ms":25}}}';
      assert.deepEqual(answerMessage(unknown, echoWorld), {
        message: { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Unknown tool: x" } },
        delayMs: 0,
      });
    });

    it("keeps a null protocolVersion (only a missing one takes the default)", () => {
      const answer = answerMessage('{"id":1,"method":"initialize","params":{"protocolVersion":null}}', echoWorld);
      assert.equal((answer?.message["result"] as { protocolVersion: unknown }).protocolVersion, null);
      const list = answerMessage('{"id":1,"method":"initialize","params":[]}', echoWorld);
      assert.equal((list?.message["result"] as { protocolVersion: unknown }).protocolVersion, "2025-06-18");
    });

    it("reads params only from an object, and no inherited property", () => {
      const answer = answerMessage('{"id":1,"method":"tools/call","params":["lookup"]}', echoWorld);
      assert.equal((answer?.message["error"] as { message: string }).message, "Unknown tool: ");
      const proto = answerMessage('{"id":1,"method":"tools/call","params":{"name":"constructor"}}', echoWorld);
      assert.equal((proto?.message["error"] as { message: string }).message, "Unknown tool: constructor");
    });
  });

  describe("parseStrictJson", () => {
    it("takes 127 levels of nesting and refuses 128, as serde_json's recursion limit does", () => {
      assert.ok(parseStrictJson(nested(127)));
      assert.equal(parseStrictJson(nested(128)), undefined);
      assert.equal(parseStrictJson(nested(100_000)), undefined);
    });

    it("refuses lone surrogates (in keys too) and numbers past f64; takes JSON whitespace around", () => {
      assert.equal(parseStrictJson('{"\\udc00":1}'), undefined);
      assert.equal(parseStrictJson("-1e309"), undefined);
      assert.deepEqual(parseStrictJson(' \t{"a":1.5e308}\r\n'), { value: { a: 1.5e308 } });
      assert.equal(parseStrictJson("\u00a0{}"), undefined);
    });
  });

  describe("requestedDelay", () => {
    it("waits for a non-negative integer delay_ms, at most 10 s, else not at all", () => {
      assert.equal(requestedDelay({ delay_ms: 7 }), 7);
      assert.equal(requestedDelay({ delay_ms: 10_001 }), 10_000);
      assert.equal(requestedDelay({ delay_ms: 1e19 }), 10_000);
      assert.equal(requestedDelay({ delay_ms: 1e20 }), 0); // past u64: serde reads a float
      for (const v of [-1, 1.5, "5", null, true]) assert.equal(requestedDelay({ delay_ms: v }), 0, String(v));
      assert.equal(requestedDelay([5]), 0);
    });
  });

  describe("the shop", () => {
    it("answers only its own tools", () => {
      assert.deepEqual(shopAnswer("lookup", {}), { error: "Unknown tool: lookup" });
      assert.deepEqual(shopAnswer("find_user_id_by_email", { email: "c12@example.com" }), { ok: "user_12" });
      assert.deepEqual(shopAnswer("find_user_id_by_email", { email: "c1a@example.com" }), { error: "User not found" });
      assert.deepEqual(shopAnswer("get_order_details", { order_id: "#Wa" }), { error: "Order not found" });
    });
  });

  describe("RequestReader", () => {
    const feed = (bytes: string | Buffer, end = false) => {
      const reader = new RequestReader();
      const data = Buffer.from(bytes);
      let state = reader.push(Buffer.alloc(0));
      // One byte at a time: the head may arrive in any pieces. Bytes past the request are
      // not its business.
      for (const b of data) {
        state = reader.push(Buffer.from([b]));
        if (state.state !== "incomplete") return state;
      }
      return end ? reader.end() : state;
    };

    it("reads the request line, the headers and content-length bytes of body", () => {
      const state = feed("POST /mcp?x=1 HTTP/1.1\r\nContent-Length: +3\r\nX-A:  b c \r\nX-A: d\r\n\r\nabcdef");
      assert.equal(state.state, "complete");
      if (state.state !== "complete") return;
      assert.equal(state.request.method, "POST");
      assert.equal(state.request.path, "/mcp?x=1");
      assert.deepEqual([...state.request.headers], [["content-length", "+3"], ["x-a", "d"]]);
      assert.equal(state.request.body.toString(), "abc");
    });

    it("waits for the body, and drops a connection whose body never comes", () => {
      const reader = new RequestReader();
      assert.equal(reader.push(Buffer.from("POST /mcp HTTP/1.1\r\nContent-Length: 4\r\n\r\nab")).state, "incomplete");
      assert.equal(reader.end().state, "dropped");
    });

    it("ends the head at a whitespace-only line or the end of input", () => {
      const spaced = feed("GET /mcp HTTP/1.1\r\n  \r\nX-Late: 1\r\n\r\n");
      assert.deepEqual(spaced.state === "complete" && [...spaced.request.headers], []);
      const cut = feed("GET  /mcp\r\nX-A: 1", true);
      assert.deepEqual(cut.state === "complete" && [cut.request.method, cut.request.path, [...cut.request.headers]], [
        "GET",
        "/mcp",
        [["x-a", "1"]],
      ]);
      const nothing = feed("", true);
      assert.deepEqual(nothing.state === "complete" && [nothing.request.method, nothing.request.path], ["", ""]);
    });

    it("takes an unreadable content-length as 0", () => {
      for (const v of ["-1", "1 2", "0x10", ""]) {
        const state = feed(`POST /mcp HTTP/1.1\r\nContent-Length: ${v}\r\n\r\nabc`);
        assert.equal(state.state === "complete" && state.request.body.length, 0, v);
      }
    });
  });

  describe("Sessions", () => {
    it("numbers sessions in turn and tells a waiter once its session is deleted", () => {
      const sessions = new Sessions();
      assert.equal(sessions.open("2025-03-26"), "demo-session-1");
      assert.equal(sessions.open("2025-06-18"), "demo-session-2");
      let told = 0;
      const stop = sessions.onDelete("demo-session-1", () => told++);
      sessions.onDelete("demo-session-2", () => assert.fail("not this one"))();
      sessions.delete("demo-session-2");
      sessions.delete("demo-session-1");
      sessions.delete("demo-session-1");
      stop();
      assert.equal(told, 1);
      assert.equal(sessions.version("demo-session-1"), undefined);
      assert.equal(sessions.open("x"), "demo-session-3");
    });
  });

  describe("--http ADDR", () => {
    it("splits host and port as Rust does, IPv6 in brackets", () => {
      assert.deepEqual(parseListenAddress("127.0.0.1:0"), { host: "127.0.0.1", port: 0 });
      assert.deepEqual(parseListenAddress("[::1]:8080"), { host: "::1", port: 8080 });
      assert.deepEqual(parseListenAddress("localhost:+80"), { host: "localhost", port: 80 });
      for (const bad of ["127.0.0.1", ":80", "a:65536", "a:-1", "[::1]", "a:"]) {
        assert.equal(parseListenAddress(bad), undefined, bad);
      }
      assert.equal(mcpUrl("::1", 5), "http://[::1]:5/mcp");
      assert.equal(mcpUrl("127.0.0.1", 5), "http://127.0.0.1:5/mcp");
    });
  });

  describe("parseDemoArgs", () => {
    it("collects hides and hints in order, later flags winning", () => {
      assert.deepEqual(
        parseDemoArgs(["--world", "retail", "--hide", "a", "--hint", "b=none", "--hint", "c=false", "--world", "echo", "--http", "x:1"]),
        { kind: "serve", options: { world: "echo", listing: { hidden: ["a"], hints: [["b", null], ["c", false]] }, http: "x:1" } },
      );
    });
  });
});
