/**
 * The session log builds its Episode only when it is needed: with no follower, a line waits
 * unread until `episode()` is asked (or too many wait). Whenever it is read, that Episode
 * must be the one built line by line as each was logged (what a follower forces), and a
 * line that passed guard mode's strict check must read into it as an unchecked one does.
 *
 * In-process, over the real `SessionLog`: whether a line was parsed, and when, cannot be
 * seen from outside the proxy.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { PARSED, frame, type Frame, type Sender } from "../../lib/bus/frame.js";
import type { EpisodeFollower } from "../../lib/bus/runtime/api.js";
import { checkOf, jsonOf } from "../../lib/bus/runtime/json-rpc.js";
import { MAX_UNREAD_LINES, SessionLog } from "../../lib/bus/runtime/session-log.js";
import { logHeader } from "../../lib/record/log-header.js";
import { readsBack } from "../../lib/protocol/reads-back.js";
import type { Json } from "../../lib/trace/json.js";
import { EpisodeBuilder } from "../../lib/trace/turns.js";

const HEADER = logHeader({ session: "s", startedUnixMs: 0, serverCommand: ["x"] });
const NO_ONE: EpisodeFollower = { event: () => undefined, call: () => undefined };

function sessionLog(whole: boolean, follow: boolean): SessionLog {
  const log = new SessionLog(HEADER, undefined);
  if (follow) log.follow(NO_ONE);
  log.keepWhole(whole);
  return log;
}

// Lines of a session, drawn: the client named at initialize, by `_meta` or not at all;
// calls (ids reused, the proxy's own among them), answers, cancellations, progress,
// conversation, batches, and lines a strict reader would read differently or not at all.
const ids = fc.constantFrom("1", "2", "3", '"a"', '"stretto-1"');
const tool = fc.constantFrom("get_order_details", "cancel_pending_order");
const value = fc.constantFrom("#W1a", "#W2b", "user_1", "12", "\\ud800", "1e400");
const callText = (id: string, t: string, v: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${t}","arguments":{"order_id":"${v}","n":${v === "1e400" ? v : 1}}}}`;
const line: fc.Arbitrary<[Sender, string]> = fc.oneof(
  fc.tuple(ids, tool, value).map(([id, t, v]): [Sender, string] => [id.includes("stretto") ? "proxy" : "client", callText(id, t, v)]),
  fc.tuple(ids, value, fc.constantFrom("result", "failed", "error")).map(([id, v, how]): [Sender, string] => [
    "server",
    how === "error"
      ? `{"jsonrpc":"2.0","id":${id},"error":{"code":-32000,"message":"no ${v}"}}`
      : `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"order ${v}"}]${how === "failed" ? ',"isError":true' : ""}}}`,
  ]),
  ids.map((id): [Sender, string] => ["client", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id}}}`]),
  fc.nat(99).map((n): [Sender, string] => ["client", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${n},"progress":${n}}}`]),
  fc.constantFrom("host-a", "").map((name): [Sender, string] => ["client", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"clientInfo":{"name":"${name}","version":"1"}}}`]),
  fc.constantFrom<[Sender, string]>(
    ["client", '{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"meta-host"}}}}'],
    ["client", '[{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"batch-host"}}}}]'],
  ),
  fc.tuple(ids, tool, ids, tool).map(([a, t, b, u]): [Sender, string] => ["client", `[${callText(a, t, "#W1a")},${callText(b, u, "#W2b")}]`]),
  fc.tuple(fc.constantFrom("user", "assistant"), value).map(([role, v]): [Sender, string] => ["context", `{"role":"${role}","content":"about ${v}"}`]),
  fc.constantFrom<[Sender, string]>(["client", "not json"], ["server", '{"id":1,"result":'], ["client", '{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call"}']),
);
/** A line, the time gap before it, and whether the Episode is read after it. */
const step = fc.tuple(line, fc.nat(900), fc.boolean());

describe("the session log's lazy Episode", function () {
  it("is, at any point it is read, the Episode built line by line as each was logged", function () {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 50 }), fc.boolean(), (steps, whole) => {
        const eager = sessionLog(whole, true);
        const lazy = sessionLog(whole, false);
        let t = 0;
        for (const [[from, text], gap, read] of steps) {
          t += gap;
          eager.add(frame(from, t, Buffer.from(`${text}\n`)));
          lazy.add(frame(from, t, Buffer.from(`${text}\n`)));
          if (read) assert.deepEqual(lazy.episode(), eager.episode());
        }
        assert.deepEqual(lazy.episode(), eager.episode());
      }),
      { numRuns: 300 },
    );
  });

  it("reads a host line that passed guard mode's strict check as the log will hold it", function () {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 50 }), (steps) => {
        const checked = sessionLog(true, true);
        const plain = new EpisodeBuilder();
        let t = 0;
        for (const [[from, text], gap] of steps) {
          t += gap;
          const f = frame(from, t, Buffer.from(`${text}\n`));
          // As the bus does in guard mode: a host line that fails is logged raw.
          const raw = from === "client" && !checkOf(f).ok;
          checked.add(f, raw);
          // The log holds a `message` where it reads back in a strict reader, else the raw text.
          const value = raw ? undefined : (jsonOf(frame(from, t, Buffer.from(text))) as Json | undefined);
          if (value !== undefined && readsBack(value)) plain.entry({ t_ms: t, from, message: value });
        }
        assert.deepEqual(checked.episode(), plain.finish(HEADER));
      }),
      { numRuns: 300 },
    );
  });

  describe("lines no one reads", function () {
    const call = (i: number) => frame("client", i, Buffer.from(`${callText(String(i), "get_order_details", "#W1a")}\n`));

    it("stay unparsed until the Episode is asked, and are not kept parsed after", function () {
      const log = sessionLog(true, false);
      const frames = Array.from({ length: 100 }, (_, i) => call(i + 1));
      for (const f of frames) log.add(f);
      assert.ok(frames.every((f) => f[PARSED] === undefined), "nothing parsed before the Episode is asked");
      const calls = log.episode().events.flatMap((e) => (e.kind === "assistant" ? e.calls : []));
      assert.equal(calls.length, 100);
      assert.ok(frames.every((f) => f[PARSED] === undefined), "the late reading is not kept on the frames");
    });

    it("are read once too many wait, and the lines after them as they are logged until the Episode is asked", function () {
      const log = sessionLog(false, false);
      let last: Frame | undefined;
      for (let i = 1; i <= MAX_UNREAD_LINES; i++) log.add((last = call(i)));
      assert.equal(last?.[PARSED], undefined, "read late");
      const next = call(MAX_UNREAD_LINES + 1);
      log.add(next);
      assert.notEqual(next[PARSED], undefined, "read as logged");
      assert.equal(log.episode().events.length, 0, "a session that keeps no history kept none");
      const after = call(MAX_UNREAD_LINES + 2);
      log.add(after);
      assert.equal(after[PARSED], undefined, "waits again once the Episode was asked");
    });
  });
});
