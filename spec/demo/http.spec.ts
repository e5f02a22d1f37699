import assert from "node:assert/strict";
import { connect, createServer } from "node:net";
import {
  body,
  exchange,
  header,
  request,
  startHttpDemo,
  spawnDemo,
  status,
  stopAll,
  type HttpDemo,
} from "./demo-process.js";

const AUTH: [string, string] = ["Authorization", "Bearer t"];
const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}';
const LIST = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}';
const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const bare = (s: string) => `HTTP/1.1 ${s}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
const EVENT_HEAD =
  "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
const logEvent = (text: string) =>
  `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${text}","level":"info"}}\n\n`;
const json = (b: string, extra: string[] = []) =>
  `HTTP/1.1 200 OK\r\nContent-Length: ${Buffer.byteLength(b)}\r\nConnection: close\r\n` +
  `Content-Type: application/json\r\n${extra.map((h) => `${h}\r\n`).join("")}\r\n${b}`;
const initAnswer = (version: string) =>
  '{"id":1,"jsonrpc":"2.0","result":{"capabilities":{"tools":{"listChanged":false}},' +
  '"instructions":"A demo server for stretto-proxy: two tools that echo their arguments.",' +
  `"protocolVersion":"${version}","serverInfo":{"name":"stretto-mcp-demo","version":"0.1.0"}}}`;

/** Initializes a session; its id. */
async function initialize(demo: HttpDemo, headers: Array<[string, string]> = [AUTH]): Promise<string> {
  const answer = await exchange(demo.port, request("POST", headers, INIT));
  assert.equal(status(answer), "HTTP/1.1 200 OK");
  return header(answer, "Mcp-Session-Id")!;
}

/** A connection that stays open: what has arrived so far, and the whole of it once closed. */
function openStream(port: number, bytes: string) {
  let seen = "";
  const socket = connect({ host: "127.0.0.1", port }, () => socket.write(bytes));
  const waiters: Array<() => void> = [];
  socket.on("data", (c: Buffer) => {
    seen += c.toString("utf8");
    waiters.splice(0).forEach((w) => w());
  });
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(seen)));
  socket.on("error", () => {});
  return {
    closed,
    socket,
    async waitFor(text: string): Promise<void> {
      while (!seen.includes(text)) await new Promise<void>((r) => waiters.push(r));
    },
  };
}

// Serves the same over Streamable HTTP (docs/demo-server.md), split by concern.
describe("stretto-mcp-demo --http (strict Streamable HTTP)", () => {
  afterEach(stopAll);

  it("serves only /mcp (query ignored), and with --require-auth only with the exact key", async () => {
    const demo = await startHttpDemo(["--require-auth", "Bearer t"]);
    assert.equal(await exchange(demo.port, "GET /other HTTP/1.1\r\nHost: demo\r\n\r\n"), bare("404 Not Found"));
    // The path is checked before the key.
    assert.equal(await exchange(demo.port, request("POST", [], INIT, "/mcp/")), bare("404 Not Found"));
    for (const headers of [[], [["Authorization", "Bearer x"]], [["Authorization", "bearer t"]]] as Array<
      Array<[string, string]>
    >) {
      assert.equal(await exchange(demo.port, request("POST", headers, INIT)), bare("401 Unauthorized"));
    }
    const answer = await exchange(demo.port, request("POST", [AUTH], INIT, "/mcp?token=x"));
    assert.equal(answer, json(initAnswer("2025-03-26"), ["Mcp-Session-Id: demo-session-1"]));
  });

  it("reads a head as far as it goes: a line without a colon is skipped, a cut-off head is answered", async () => {
    const demo = await startHttpDemo(["--require-auth", "Bearer t"]);
    // Both reach the GET check (no session → 404), so the key was read past the odd line.
    const odd = await exchange(demo.port, "GET /mcp HTTP/1.1\r\nno colon here\r\nAuthorization: Bearer t\r\n\r\n");
    assert.equal(odd, bare("404 Not Found"));
    const cut = await exchange(demo.port, "GET /mcp HTTP/1.1\r\nAuthorization: Bearer t\r\n", true);
    assert.equal(cut, bare("404 Not Found"));
    // Without the key line, each would be refused first.
    assert.equal(await exchange(demo.port, "GET /mcp HTTP/1.1\r\nAuthorization Bearer t\r\n\r\n"), bare("401 Unauthorized"));
    // A connection that sends nothing has no path.
    assert.equal(await exchange(demo.port, "", true), bare("404 Not Found"));
    // Header names in any case, values trimmed; bare \n line ends are fine.
    const session = await initialize(demo);
    const listed = await exchange(
      demo.port,
      `POST /mcp HTTP/1.1\nAUTHORIZATION:   Bearer t  \nmcp-SESSION-id:${session}\n` +
        `Mcp-Protocol-Version: 2025-03-26\ncontent-length: ${LIST.length}\n\n${LIST}`,
    );
    assert.equal(status(listed), "HTTP/1.1 200 OK");
  });

  it("drops the connection without a reply when the body is cut short or the head is not UTF-8", async () => {
    const demo = await startHttpDemo();
    const short = `POST /mcp HTTP/1.1\r\nContent-Length: ${INIT.length + 5}\r\n\r\n${INIT}`;
    assert.equal(await exchange(demo.port, short, true), "");
    const notUtf8 = Buffer.concat([Buffer.from("GET /mcp HTTP/1.1\r\nX-Odd: "), Buffer.from([0xff]), Buffer.from("\r\n\r\n")]);
    assert.equal(await exchange(demo.port, notUtf8), "");
    // An unreadable length counts as 0: the body is not read and the server still answers.
    const bad = `POST /mcp HTTP/1.1\r\nContent-Length: -1\r\n\r\n${INIT}`;
    assert.equal(await exchange(demo.port, bad), bare("400 Bad Request"));
  });

  it("initialize opens sessions demo-session-1, -2, … and agrees the version asked for (else 2025-06-18)", async () => {
    const demo = await startHttpDemo(["--require-auth", "Bearer t"]);
    const first = await exchange(demo.port, request("POST", [AUTH], INIT));
    assert.equal(first, json(initAnswer("2025-03-26"), ["Mcp-Session-Id: demo-session-1"]));
    const plain = '{"jsonrpc":"2.0","id":1,"method":"initialize"}';
    const second = await exchange(demo.port, request("POST", [AUTH], plain));
    assert.equal(second, json(initAnswer("2025-06-18"), ["Mcp-Session-Id: demo-session-2"]));
    // One with no id has nothing to answer.
    const noId = '{"jsonrpc":"2.0","method":"initialize"}';
    assert.equal(await exchange(demo.port, request("POST", [AUTH], noId)), bare("400 Bad Request"));
    // A version that is not a string is echoed, but the session agrees the default.
    const odd = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5}}';
    const third = await exchange(demo.port, request("POST", [AUTH], odd));
    assert.equal(header(third, "Mcp-Session-Id"), "demo-session-3");
    const live: Array<[string, string]> = [AUTH, ["Mcp-Session-Id", "demo-session-3"], ["MCP-Protocol-Version", "2025-06-18"]];
    assert.equal(status(await exchange(demo.port, request("POST", live, LIST))), "HTTP/1.1 200 OK");
  });

  it("wants a live session and its version on every later POST", async () => {
    const demo = await startHttpDemo(["--require-auth", "Bearer t"]);
    const session = await initialize(demo);
    const cases: Array<[Array<[string, string]>, string]> = [
      [[AUTH], "400 Bad Request"],
      [[AUTH, ["Mcp-Session-Id", "demo-session-99"]], "404 Not Found"],
      [[AUTH, ["Mcp-Session-Id", session]], "400 Bad Request"],
      [[AUTH, ["Mcp-Session-Id", session], ["MCP-Protocol-Version", "2025-06-18"]], "400 Bad Request"],
    ];
    for (const [headers, expected] of cases) {
      assert.equal(await exchange(demo.port, request("POST", headers, LIST)), bare(expected), JSON.stringify(headers));
    }
  });

  it("answers a request with one JSON body, a notification with 202, a call on an event stream", async () => {
    const demo = await startHttpDemo(["--require-auth", "Bearer t"]);
    const session = await initialize(demo);
    const live: Array<[string, string]> = [AUTH, ["Mcp-Session-Id", session], ["MCP-Protocol-Version", "2025-03-26"]];
    const listed = await exchange(demo.port, request("POST", live, LIST));
    assert.equal(header(listed, "Content-Type"), "application/json");
    const tools = JSON.parse(body(listed)) as { result: { tools: Array<{ name: string }> } };
    assert.deepEqual(tools.result.tools.map((t) => t.name), ["lookup", "update"]);
    assert.equal(await exchange(demo.port, request("POST", live, INITIALIZED)), bare("202 Accepted"));
    const lookup = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup","arguments":{"text":"hi"}}}';
    assert.equal(
      await exchange(demo.port, request("POST", live, lookup)),
      EVENT_HEAD +
        logEvent("calling lookup") +
        'event: message\ndata: {"id":3,"jsonrpc":"2.0","result":{"content":[{"text":"{\\"text\\":\\"hi\\"}","type":"text"}],"isError":false}}\n\n',
    );
    // An unknown tool is still a call: its error comes on the stream too.
    const nameless = '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}';
    assert.equal(
      await exchange(demo.port, request("POST", live, nameless)),
      EVENT_HEAD +
        logEvent("calling ") +
        'event: message\ndata: {"error":{"code":-32602,"message":"Unknown tool: "},"id":4,"jsonrpc":"2.0"}\n\n',
    );
    // A body that is not JSON gets the parse error, as one JSON body.
    assert.equal(
      await exchange(demo.port, request("POST", live, "")),
      json('{"error":{"code":-32700,"message":"Parse error"},"id":null,"jsonrpc":"2.0"}'),
    );
  });

  it("opens the server's own stream on GET with a live session, and ends it when the session is deleted", async () => {
    const demo = await startHttpDemo(["--require-auth", "Bearer t"]);
    assert.equal(await exchange(demo.port, request("GET", [AUTH])), bare("404 Not Found"));
    assert.equal(await exchange(demo.port, request("GET", [AUTH, ["Mcp-Session-Id", "demo-session-9"]])), bare("404 Not Found"));
    const session = await initialize(demo);
    // The version header is not checked on GET.
    const stream = openStream(demo.port, request("GET", [AUTH, ["Mcp-Session-Id", session]]));
    await stream.waitFor("hello from the server's own stream");
    const live: Array<[string, string]> = [AUTH, ["Mcp-Session-Id", session], ["MCP-Protocol-Version", "2025-03-26"]];
    // It holds while the session lives.
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(stream.socket.readyState, "open");
    assert.equal(await exchange(demo.port, request("DELETE", live)), bare("200 OK"));
    assert.equal(await stream.closed, EVENT_HEAD + logEvent("hello from the server's own stream"));
    assert.equal(await exchange(demo.port, request("POST", live, LIST)), bare("404 Not Found"));
    // DELETE always succeeds, known session or not.
    assert.equal(await exchange(demo.port, request("DELETE", [AUTH])), bare("200 OK"));
    assert.equal(await exchange(demo.port, request("DELETE", live)), bare("200 OK"));
  });

  it("refuses other methods with 405 and Allow: GET, POST, DELETE", async () => {
    const demo = await startHttpDemo(["--require-auth", "Bearer t"]);
    const allowed = "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\nAllow: GET, POST, DELETE\r\n\r\n";
    assert.equal(await exchange(demo.port, request("PUT", [AUTH])), allowed);
    assert.equal(await exchange(demo.port, request("post", [AUTH], INIT)), allowed);
  });

  it("serves each connection on its own: a slow call holds up no other", async () => {
    const demo = await startHttpDemo();
    const session = await initialize(demo, []);
    const live: Array<[string, string]> = [["Mcp-Session-Id", session], ["MCP-Protocol-Version", "2025-03-26"]];
    const order: string[] = [];
    const slow = exchange(
      demo.port,
      request("POST", live, '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"update","arguments":{"delay_ms":500}}}'),
    ).then((r) => order.push(`slow ${status(r)}`));
    await new Promise((r) => setTimeout(r, 50));
    const quick = exchange(demo.port, request("POST", live, '{"jsonrpc":"2.0","id":2,"method":"ping"}')).then((r) =>
      order.push(`quick ${body(r)}`),
    );
    await Promise.all([slow, quick]);
    assert.deepEqual(order, ['quick {"id":2,"jsonrpc":"2.0","result":{}}', "slow HTTP/1.1 200 OK"]);
  });

  it("serves the shop as --world, --hide and --hint say", async () => {
    const demo = await startHttpDemo(["--world", "retail", "--hide", "cancel_pending_order"]);
    const session = await initialize(demo, []);
    const live: Array<[string, string]> = [["Mcp-Session-Id", session], ["MCP-Protocol-Version", "2025-03-26"]];
    const listed = JSON.parse(body(await exchange(demo.port, request("POST", live, LIST)))) as {
      result: { tools: Array<{ name: string }> };
    };
    assert.deepEqual(listed.result.tools.map((t) => t.name), ["find_user_id_by_email", "get_user_details", "get_order_details"]);
    const find = '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"find_user_id_by_email","arguments":{"email":"c2@example.com"}}}';
    assert.equal(
      await exchange(demo.port, request("POST", live, find)),
      EVENT_HEAD +
        logEvent("calling find_user_id_by_email") +
        'event: message\ndata: {"id":5,"jsonrpc":"2.0","result":{"content":[{"text":"user_2","type":"text"}],"isError":false}}\n\n',
    );
  });

  it("prints its URL with the address it bound, an IPv6 one in brackets", async function () {
    const ipv6 = await new Promise<boolean>((resolve) => {
      const probe = createServer().once("error", () => resolve(false));
      probe.listen(0, "::1", () => probe.close(() => resolve(true)));
    });
    if (!ipv6) this.skip();
    const child = spawnDemo(["--http", "[::1]:0"]);
    const line = await new Promise<string>((resolve) => child.stdout.once("data", (c: Buffer) => resolve(c.toString())));
    assert.match(line, /^http:\/\/\[::1\]:[1-9]\d*\/mcp\n$/);
  });
});
