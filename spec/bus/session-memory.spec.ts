/**
 * A session's memory follows its facts, not its bytes (docs/session-memory.md). A session
 * whose plugins all follow the Episode (`readsEpisode: false`) keeps none of its events:
 * each reaches the followers as it is logged and is dropped. These specs read the live
 * Episode's own count of what it holds (`SessionLog.retained`), not the process's memory.
 *
 * In-process, over the real `SessionLog` and the retail world's own answers
 * (`answerMessage`, as `stretto-mcp-demo --world retail` writes them): a count of what one
 * object holds cannot be read from outside the proxy. The proxy itself runs this way in
 * every guards spec.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { frame, type Frame, type Sender } from "../../lib/bus/frame.js";
import type { EpisodeFollower } from "../../lib/bus/runtime/api.js";
import { KEPT_TEXT_CHARS, SessionLog } from "../../lib/bus/runtime/session-log.js";
import { answerMessage } from "../../lib/demo/answer.js";
import { emptyListing } from "../../lib/demo/worlds/listing.js";
import { retailWorld } from "../../lib/demo/worlds/retail.js";
import { guardsFor } from "../../lib/guards/domains.js";
import { logHeader } from "../../lib/record/log-header.js";
import type { Episode, EpisodeEvent, ToolCall } from "../../lib/trace/episode-types.js";
import { LazyToolResult } from "../../lib/trace/lazy-result.js";
import { SETTLE_PIECES, TextStore } from "../../lib/trace/text-store.js";
import { EpisodeBuilder, PASSED_VALUES_KEPT } from "../../lib/trace/turns.js";
import { sortedJson } from "../../lib/util/sorted-json.js";

const HEADER = logHeader({ session: "s", startedUnixMs: 0, serverCommand: ["stretto-mcp-demo"], domain: "retail" });
const INITIALIZE = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"clientInfo":{"name":"host","version":"1"}}}';

/** What a follower was handed, in order, as text. */
function recording(): EpisodeFollower & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    event: (e) => seen.push(JSON.stringify(e)),
    call: (c) => seen.push(JSON.stringify({ call: c })),
  };
}

function sessionLog(whole: boolean, ...followers: EpisodeFollower[]): SessionLog {
  const log = new SessionLog(HEADER, undefined);
  log.keepWhole(whole);
  for (const f of followers) log.follow(f);
  return log;
}

/** The whole Episode's events and calls, flattened as followers are handed them (no turns). */
function flattened(ep: Episode): { events: string[]; calls: string[] } {
  const events: string[] = [];
  const calls: string[] = [];
  for (const e of ep.events) {
    if (e.kind === "assistant" && e.text === null) for (const c of e.calls) calls.push(JSON.stringify({ call: c }));
    else events.push(JSON.stringify(e));
  }
  return { events, calls };
}

// Lines of a session, drawn: calls (ids reused, the proxy's own among them), answers
// (results, failed results, errors), cancellations, and the conversation.
const ids = fc.constantFrom("1", "2", "3", '"a"', '"stretto-1"');
const tool = fc.constantFrom("get_order_details", "cancel_pending_order", "find_user_id_by_email");
const value = fc.constantFrom("#W1a", "#W2b", "c1@example.com", "user_1", "12");
const line: fc.Arbitrary<[Sender, string]> = fc.oneof(
  fc.tuple(ids, tool, value).map(([id, t, v]): [Sender, string] => [id.includes("stretto") ? "proxy" : "client", `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${t}","arguments":{"order_id":"${v}"}}}`]),
  fc.tuple(ids, value, fc.constantFrom("result", "failed", "error")).map(([id, v, how]): [Sender, string] => [
    "server",
    how === "error"
      ? `{"jsonrpc":"2.0","id":${id},"error":{"code":-32000,"message":"no"}}`
      : `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"{\\"order_id\\":\\"${v}\\",\\"status\\":\\"pending\\"}"}]${how === "failed" ? ',"isError":true' : ""}}}`,
  ]),
  ids.map((id): [Sender, string] => ["client", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id}}}`]),
  fc.tuple(fc.constantFrom("user", "assistant"), value).map(([role, v]): [Sender, string] => ["context", `{"role":"${role}","content":"about ${v}"}`]),
);

/** A follower that keeps no event (as the guards' facts): it reads each one as it is handed, results' text through `content`. */
function lazyRecording(): EpisodeFollower & { seen: string[]; lazy: number } {
  const r = { seen: [] as string[], lazy: 0, keepsNoEvents: true };
  return Object.assign(r, {
    event: (e: EpisodeEvent) => {
      if (e instanceof LazyToolResult) r.lazy++;
      r.seen.push(JSON.stringify(e.kind === "tool_result" ? { kind: e.kind, call_id: e.call_id, name: e.name, error: e.error, content: e.content } : e));
    },
    call: (c: ToolCall) => r.seen.push(JSON.stringify({ call: c })),
  });
}

// The lines above, and results without text items: a record, `structuredContent`, a string.
const lineOrRecord: fc.Arbitrary<[Sender, string]> = fc.oneof(
  line,
  fc.tuple(ids, value, fc.constantFrom("record", "structured", "string")).map(([id, v, how]): [Sender, string] => [
    "server",
    how === "record"
      ? `{"jsonrpc":"2.0","id":${id},"result":{"status":"pending","order_id":"${v}","items":[{"b":1,"a":-0}]}}`
      : how === "structured"
        ? `{"jsonrpc":"2.0","id":${id},"result":{"content":[],"structuredContent":{"user_id":"${v}","\u00e9":"\ud83d\ude00"}}}`
        : `{"jsonrpc":"2.0","id":${id},"result":"${v}"}`,
  ]),
);

/** The initialize, then each line after its gap, added to every log alike; `after` runs after each line. */
function feed(lines: readonly [[Sender, string], number][], logs: readonly { add(f: Frame): void }[], after?: () => void): void {
  let t = 0;
  for (const [[from, text], gap] of [[["client", INITIALIZE], 0] as [[Sender, string], number], ...lines]) {
    t += gap;
    for (const log of logs) log.add(frame(from, t, Buffer.from(text)));
    after?.();
  }
}

describe("a session's memory", function () {
  it("hands each event to the followers as it is logged, the same whether the Episode keeps it or not, and keeps none when it need not", function () {
    fc.assert(
      fc.property(fc.array(fc.tuple(line, fc.nat(900)), { maxLength: 60 }), (lines) => {
        const kept = recording();
        const dropped = recording();
        const whole = sessionLog(true, kept);
        const bounded = sessionLog(false, dropped);
        feed(lines, [whole, bounded], () => assert.deepEqual(bounded.retained(), { events: 0, calls: 0 }, "nothing stays once handed on"));
        assert.deepEqual(dropped.seen, kept.seen);
        // Everything the whole Episode holds was handed on: its events in order, and its calls.
        const { events, calls } = flattened(whole.episode());
        assert.deepEqual(
          kept.seen.filter((s) => !s.startsWith('{"call"')),
          events,
        );
        assert.deepEqual(
          kept.seen.filter((s) => s.startsWith('{"call"')).sort(),
          calls.sort(),
        );
        assert.deepEqual(bounded.episode().events, []);
      }),
      { numRuns: 300 },
    );
  });

  it("hands a follower that keeps no event each tool result read lazily, whose text is the one a whole Episode holds", function () {
    let lazy = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(lineOrRecord, fc.nat(900)), { maxLength: 60 }), (lines) => {
        const kept = recording();
        const light = lazyRecording();
        feed(lines, [sessionLog(true, kept), sessionLog(false, light)]);
        assert.deepEqual(light.seen, kept.seen);
        assert.equal(light.lazy, light.seen.filter((s) => s.startsWith('{"kind":"tool_result"')).length, "every result came read lazily");
        lazy += light.lazy;
      }),
      { numRuns: 300 },
    );
    assert.ok(lazy > 0);
  });

  it("lets the text of turn inference go when its history is dropped mid-session with a follower, and hands the follower the same", function () {
    const pairs = (log: SessionLog, from: number, to: number, t: { ms: number }) => {
      for (let i = from; i < to; i++) {
        const id = i + 1;
        log.add(frame("client", t.ms++, Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"get_order_details","arguments":{"order_id":"#W${i}a"}}}`)));
        log.add(frame("server", t.ms++, Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"{\\"order_id\\":\\"#W${i}a\\",\\"user_id\\":\\"user_${i}\\"}"}]}}`)));
      }
    };
    const keptFollower = recording();
    const droppedFollower = recording();
    const keeping = sessionLog(true, keptFollower);
    const dropping = sessionLog(true, droppedFollower);
    const tk = { ms: 0 };
    const td = { ms: 0 };
    for (const log of [keeping, dropping]) log.add(frame("client", 0, Buffer.from(INITIALIZE)));
    pairs(keeping, 0, 300, tk);
    pairs(dropping, 0, 300, td);
    assert.ok(dropping.keptTextChars() > 0, "turn inference keeps text while the Episode is whole");
    dropping.dropHistory();
    assert.equal(dropping.keptTextChars(), 0);
    pairs(keeping, 300, 600, tk);
    pairs(dropping, 300, 600, td);
    assert.equal(dropping.keptTextChars(), 0, "and keeps none from then on");
    assert.deepEqual(dropping.retained(), { events: 0, calls: 0 });
    assert.ok(keeping.keptTextChars() > 0);
    assert.deepEqual(droppedFollower.seen, keptFollower.seen, "the follower is handed the same calls and events");
  });

  describe("20,000 pipelined get_order_details calls to the retail world, guards' facts following", function () {
    const CALLS = 20_000;
    const ORDERS = 500;
    const IN_FLIGHT = 100;

    /** Runs the session; the most the live Episode held after any line, and the guards' facts. */
    function run(whole: boolean) {
      const world = retailWorld(emptyListing());
      const guards = guardsFor("retail");
      const log = sessionLog(whole, { event: (e) => guards.facts.apply(e), call: (c) => guards.facts.addCall(c) });
      let most = { events: 0, calls: 0 };
      let t = 0;
      const add = (from: Sender, text: string) => {
        log.add(frame(from, t++, Buffer.from(text)));
        const r = log.retained();
        most = { events: Math.max(most.events, r.events), calls: Math.max(most.calls, r.calls) };
      };
      const ask = (id: number, name: string, args: object) => {
        const request = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
        add("client", request);
        return () => add("server", sortedJson(answerMessage(request, world)!.message));
      };
      add("client", INITIALIZE);
      ask(1, "find_user_id_by_email", { email: "c1@example.com" })();
      const waiting: Array<() => void> = [];
      for (let i = 0; i < CALLS; i++) {
        waiting.push(ask(i + 2, "get_order_details", { order_id: `#W${(i % ORDERS) + 1}a` }));
        if (waiting.length > IN_FLIGHT) waiting.shift()!();
      }
      for (const answer of waiting) answer();
      return { most, guards, log };
    }

    it("keeps none of it in the live Episode, and the facts hold what the session learned, each order once", function () {
      const { most, guards, log } = run(false);
      assert.deepEqual(most, { events: 0, calls: 0 });
      assert.equal(log.episode().events.length, 0);
      const sizes = guards.facts.sizes();
      assert.equal(sizes.orders, ORDERS, "one record per order");
      assert.equal(sizes.calls, 0, "a call is dropped once its result is in");
      assert.ok(guards.facts.isAuthenticated("user_1"), "who authenticated is remembered");
      assert.equal(guards.facts.order("#W7a")?.["status"], "pending");
      assert.equal(guards.facts.applied, 2 * (CALLS + 1));
    });

    it("keeps every result when a plugin reads the Episode whole", function () {
      const { most, guards } = run(true);
      assert.ok(most.events >= CALLS + 1, `${most.events} events: every result`);
      assert.equal(guards.facts.sizes().orders, ORDERS);
    });
  });

  describe("turn inference's text, in a session that keeps no history", function () {
    it("keeps at least the latest limit of characters and at most a quarter more, and still finds what is in them", function () {
      const limit = 4096;
      const store = new TextStore(limit);
      // A store with a limit trims as it writes its pieces out, every SETTLE_PIECES appends.
      const n = 12 * SETTLE_PIECES;
      for (let i = 0; i < n; i++) store.append(`piece ${i};`);
      const text = store.toString();
      assert.ok(text.length >= limit && text.length <= limit * 1.25, `${text.length} characters`);
      assert.ok(text.endsWith(`piece ${n - 1};`));
      assert.ok(store.includes(`piece ${n - 200};`));
      assert.ok(!store.includes("piece 10;"), "the oldest text is gone");
      const all = new TextStore();
      for (let i = 0; i < n; i++) all.append(`piece ${i};`);
      assert.ok(all.includes("piece 10;"), "without a limit, all of it stays");
    });

    it("stays bounded when it is searched more often than it writes its pieces out", function () {
      const limit = 4096;
      const store = new TextStore(limit);
      const n = 4 * SETTLE_PIECES;
      for (let i = 0; i < n; i++) {
        store.append(`piece ${i};`);
        if (i % 10 === 0) assert.ok(store.includes(`piece ${i};`));
      }
      assert.ok(store.length <= limit * 1.25, `${store.length} characters kept`);
      assert.ok(store.includes(`piece ${n - 1};`));
    });

    it("keeps a bounded set of the values calls passed, and reads the same session the same", function () {
      // Every call passes a new order id: an exact set of them would grow with the session.
      const builder = new EpisodeBuilder({ textChars: KEPT_TEXT_CHARS });
      const whole = new EpisodeBuilder();
      const calls = PASSED_VALUES_KEPT + 500;
      for (let i = 0; i < calls; i++) {
        for (const b of [builder, whole]) {
          b.entry({ t_ms: 10 * i, from: "client", message: { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "get_order_details", arguments: { order_id: `#W${i}` } } } });
          b.entry({ t_ms: 10 * i + 1, from: "server", message: { jsonrpc: "2.0", id: i, result: { content: [{ type: "text", text: `order #W${i}` }] } } });
        }
      }
      const passed = (b: EpisodeBuilder) => (b as unknown as { passed: Set<string> }).passed.size;
      assert.ok(passed(builder) <= PASSED_VALUES_KEPT, `${passed(builder)} values kept`);
      assert.equal(passed(whole), calls, "without a limit, every value stays");
      assert.deepEqual(builder.events, whole.events, "the same turns, calls and results");
    });

    it("is what a live session that keeps no history keeps", function () {
      assert.ok(KEPT_TEXT_CHARS >= 4096 && KEPT_TEXT_CHARS <= 1 << 20, `${KEPT_TEXT_CHARS}`);
    });
  });
});
