/**
 * Guard mode fails closed: each way of writing a refused call that a server might still
 * read (found by probing the guarded proxy as an attacker would) is answered by the proxy,
 * reaches no server, is logged as refused, and the offline tools agree with the live proxy.
 * The server is the demo shop behind a wire tap that keeps every byte it was sent.
 */
import assert from "node:assert/strict";
import { constants } from "node:buffer";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LineHost } from "./line-host.js";
import { DEMO, NODE, PROXY, STRETTO, cleanTemp, killAll, readLogLines, run, sessionLogs, start, tempDir } from "../helpers/processes.js";
import { initialize, initialized, startDemoHttp } from "../http/support.js";

const TAP = join(PROXY, "../../../spec/helpers/wire-tap.js");
const cancelArgs = `{"name":"cancel_pending_order","arguments":{"order_id":"#W7a","reason":"no longer needed"}}`;
const cancel = (id: string, extra = "") => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${cancelArgs}${extra}}`;
const END = '{"jsonrpc":"2.0","id":"end","method":"ping"}';
const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

/** Each finding's exact line, and the ids (as written) the host must get an error for. */
const FINDINGS: Array<{ name: string; line: Buffer; answered: string[]; code: number }> = [
  { name: "an invalid UTF-8 byte in an unused field", line: bytes(cancel("11", `,"pad":"`).slice(0, -1), [0xc3], `"}`), answered: ["11"], code: -32700 },
  { name: "a bare CR between two messages", line: bytes(`{"jsonrpc":"2.0","id":12,"method":"ping"}\r${cancel("13")}`), answered: ["12", "13"], code: -32700 },
  { name: "NaN", line: bytes(cancel("14").replace(`"reason":"no longer needed"`, `"reason":"no longer needed","n":NaN`)), answered: ["14"], code: -32700 },
  { name: "Infinity", line: bytes(cancel("15").replace(`"jsonrpc":"2.0"`, `"jsonrpc":"2.0","n":-Infinity`)), answered: ["15"], code: -32700 },
  { name: "an object id", line: bytes(cancel(`{"n":21}`)), answered: [], code: -32600 },
  { name: "an array id", line: bytes(cancel(`[22]`)), answered: [], code: -32600 },
  { name: "a true id", line: bytes(cancel("true")), answered: [], code: -32600 },
  { name: "a null id", line: bytes(cancel("null")), answered: [], code: -32600 },
  { name: "no id", line: bytes(`{"jsonrpc":"2.0","method":"tools/call","params":${cancelArgs}}`), answered: [], code: -32600 },
  {
    name: "a duplicate name",
    line: bytes(cancel("31").replace(`"name":"cancel_pending_order"`, `"name":"cancel_pending_order","name":"get_order_details"`)),
    answered: ["31"],
    code: -32600,
  },
  {
    name: "duplicate arguments",
    line: bytes(cancel("32").replace(`}}}`, `},"arguments":{"order_id":"#W7a"}}}`)),
    answered: ["32"],
    code: -32600,
  },
  {
    name: "a duplicate reason",
    line: bytes(cancel("33").replace(`"reason":"no longer needed"`, `"reason":"no longer needed","reason":"found it cheaper"`)),
    answered: ["33"],
    code: -32600,
  },
  {
    name: "duplicate params",
    line: bytes(`{"jsonrpc":"2.0","id":34,"method":"tools/call","params":${cancelArgs},"params":{"name":"get_order_details","arguments":{"order_id":"#W7a"}}}`),
    answered: ["34"],
    code: -32600,
  },
  {
    name: "a duplicate method",
    line: bytes(cancel("35").replace(`"method":"tools/call"`, `"method":"tools/call","method":"ping"`)),
    answered: ["35"],
    code: -32600,
  },
  { name: "a nested batch", line: bytes(`[[${cancel("41")}]]`), answered: [], code: -32600 },
  { name: "a UTF-8 BOM before the line", line: bytes([0xef, 0xbb, 0xbf], cancel("42")), answered: ["42"], code: -32700 },
];

interface Answer {
  id?: unknown;
  error?: { code: number; message: string };
  result?: unknown;
}

describe("guard mode fails closed: every finding of the outside probe", function () {
  this.timeout(60_000);
  let dir: string;
  let answers: Array<{ raw: string; value: Answer }>;
  let reachedServer: string;
  let log: string;

  before(async () => {
    dir = tempDir();
    const host = new LineHost(start(NODE, [PROXY, "--record", dir, "--guards", "--domain", "retail", "--", NODE, TAP, dir, "--", NODE, DEMO, "--world", "retail"]));
    // The same cancellation written plainly: refused by the policy, as a baseline.
    host.send(cancel("1"));
    for (const f of FINDINGS) host.send(f.line);
    host.send(END);
    await host.waitFor((l) => l.includes('"id":"end"'));
    await host.end();
    answers = host.lines.map((raw) => ({ raw, value: JSON.parse(raw) as Answer }));
    reachedServer = readFileSync(join(dir, "host-sent.bin"), "latin1");
    log = sessionLogs(dir)[0]!;
  });
  after(() => {
    killAll();
    cleanTemp();
  });

  it("no refused call reaches the server, in any form", () => {
    assert.doesNotMatch(reachedServer, /cancel_pending_order/);
    assert.equal(reachedServer, `{"jsonrpc":"2.0","id":"end","method":"ping"}\n`, "only the clean ping went on");
  });

  for (const f of FINDINGS) {
    it(`${f.name}: answered with a JSON-RPC error${f.answered.length ? " carrying the id as written" : " without an id"}`, () => {
      const mine = answers.filter((a) => a.value.error && (f.answered.length ? f.answered.some((id) => a.raw.includes(`"id":${id},`)) : !("id" in a.value)));
      assert.ok(mine.length >= Math.max(1, f.answered.length), `no answer for ${f.name}: ${answers.map((a) => a.raw).join("\n")}`);
      for (const a of mine) {
        assert.equal(a.value.error!.code, f.code);
        assert.match(a.value.error!.message, /^stretto-proxy did not forward this line: /);
      }
    });
  }

  it("logs each refused line as raw text, followed by the proxy's answer", () => {
    const { entries } = readLogLines(log);
    const parsed = entries.map((e) => JSON.parse(e) as { from: string; raw?: string; message?: unknown });
    const clientRaw = parsed.filter((e) => e.from === "client" && e.raw !== undefined);
    assert.equal(clientRaw.length, FINDINGS.length, "every finding's line is logged raw");
    const proxyErrors = parsed.filter((e) => e.from === "proxy" && (e.message as Answer | undefined)?.error);
    for (const e of proxyErrors) assert.match((e.message as Answer).error!.message, /^stretto-proxy did not forward this line: /);
    const expected = FINDINGS.reduce((n, f) => n + Math.max(1, f.answered.length), 0);
    assert.equal(proxyErrors.length, expected, "each answer is logged as the proxy's");
  });

  it("stretto episode shows the one plain cancellation, refused, and no other", async () => {
    const r = await run(NODE, [STRETTO, "episode", log]);
    assert.equal(r.code, 0, r.stderr);
    const episode = JSON.parse(r.stdout.toString()) as { events: Array<{ kind: string; calls?: Array<{ id: string; name: string }>; error?: boolean; content?: string }> };
    const calls = episode.events.flatMap((e) => e.calls ?? []);
    assert.deepEqual(calls.map((c) => [c.id, c.name]), [["1", "cancel_pending_order"]]);
    const results = episode.events.filter((e) => e.kind === "tool_result");
    assert.equal(results.length, 1);
    assert.equal(results[0]!.error, true);
    assert.match(results[0]!.content!, /^Refused by the policy check/);
  });

  it("stretto guards counts one write, refused, and none accepted", async () => {
    const out = join(dir, "audit.json");
    const r = await run(NODE, [STRETTO, "guards", "--sessions", dir, "--domain", "retail", "--json", out]);
    assert.equal(r.code, 0, r.stderr);
    const [audit] = JSON.parse(readFileSync(out, "utf8")) as Array<{ writes: [number, number] }>;
    assert.deepEqual(audit!.writes, [0, 1], "[accepted, refused]");
  });

  it("stretto replay refuses the same lines, with the same ids", async () => {
    const r = await run(NODE, [STRETTO, "replay", log, "--guards", "--domain", "retail"]);
    assert.equal(r.code, 0, r.stderr);
    const actions = r.stdout
      .toString()
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { action: string; id: unknown; text: string });
    const live = answers
      .filter((a) => a.value.id !== "end")
      .map((a) => `refused:${JSON.stringify(a.value.id ?? null)}:${a.value.error?.message ?? "policy"}`);
    const replayed = actions.map((a) => `${a.action}:${JSON.stringify(a.id)}:${a.text.startsWith("Refused by the policy check") ? "policy" : a.text}`);
    assert.deepEqual(replayed, live, "the same refusals, ids and reasons, in the same order");
  });
});

describe("guard mode fails closed on a line longer than the longest string", function () {
  this.timeout(120_000);
  after(() => {
    killAll();
    cleanTemp();
  });

  it("refuses it instead of skipping the guard (a 512 MiB cancellation)", async () => {
    const dir = tempDir();
    const proxy = start(NODE, [PROXY, "--guards", "--domain", "retail", "--", NODE, TAP, dir, "--", NODE, DEMO, "--world", "retail"]);
    let out = "";
    proxy.stdout!.on("data", (c: Buffer) => (out += c.toString()));
    const closed = new Promise((r) => proxy.once("close", r));
    const pad = Buffer.alloc(16 * 1024 * 1024, 0x70);
    const pieces = Math.ceil((constants.MAX_STRING_LENGTH + 1) / pad.length);
    const write = (b: Buffer | string) => new Promise<void>((r) => (proxy.stdin!.write(b) ? r() : proxy.stdin!.once("drain", () => r())));
    await write(cancel("7", `,"pad":"`).slice(0, -1));
    for (let i = 0; i < pieces; i++) await write(pad);
    await write(`"}\n{"jsonrpc":"2.0","id":"end","method":"ping"}\n`);
    proxy.stdin!.end();
    await closed;
    assert.match(out, /^\{"jsonrpc":"2\.0","error":\{"code":-32700,"message":"stretto-proxy did not forward this line: the line is too long to check"\}\}\n/);
    assert.equal(readFileSync(join(dir, "host-sent.bin"), "utf8"), `{"jsonrpc":"2.0","id":"end","method":"ping"}\n`);
  });
});

describe("guard mode fails closed in front of a Streamable HTTP server (--upstream)", function () {
  this.timeout(30_000);
  after(() => {
    killAll();
    cleanTemp();
  });

  it("answers the invalid UTF-8 and duplicate-key cancellations itself; the server runs neither", async () => {
    const { url } = await startDemoHttp(["--world", "retail"]);
    const host = new LineHost(start(NODE, [PROXY, "--guards", "--domain", "retail", "--upstream", url]));
    host.send(JSON.stringify(initialize(1)));
    host.send(JSON.stringify(initialized));
    host.send(Buffer.concat([Buffer.from(cancel("2", `,"pad":"`).slice(0, -1)), Buffer.from([0xc3]), Buffer.from(`"}`)]));
    host.send(cancel("3").replace('"name":"cancel_pending_order"', '"name":"get_order_details","name":"cancel_pending_order"'));
    host.send(END);
    await host.waitFor((l) => l.includes('"id":"end"'));
    await host.end();
    const lines = host.lines;
    assert.match(lines.find((l) => l.includes('"id":2,'))!, /"code":-32700,"message":"stretto-proxy did not forward this line: the line is not valid UTF-8"/);
    assert.match(lines.find((l) => l.includes('"id":3,'))!, /"code":-32600/);
    assert.doesNotMatch(lines.join("\n"), /cancelled/);
  });
});
