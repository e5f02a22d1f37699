/**
 * The active session's log keeps the session's Episode, and passes over lines the Episode
 * cannot use without parsing them (`EpisodeBuilder.wantsLine`, `mayHoldText`). Whatever it
 * skips, the Episode must be the one every line, parsed, would have built.
 */
import assert from "node:assert/strict";
import { frame, type Sender } from "../../lib/bus/frame.js";
import { jsonOf } from "../../lib/bus/runtime/json-rpc.js";
import { SessionLog } from "../../lib/bus/runtime/session-log.js";
import { logHeader } from "../../lib/record/log-header.js";
import { readsBack } from "../../lib/protocol/reads-back.js";
import { mayHoldText, type Json } from "../../lib/trace/json.js";
import { EpisodeBuilder } from "../../lib/trace/turns.js";

const HEADER = logHeader({ session: "s", startedUnixMs: 0, serverCommand: ["x"] });

/** The same lines through the session log and, every one parsed, straight into a builder. */
function both(lines: Array<[Sender, string]>) {
  const log = new SessionLog(HEADER, undefined);
  const plain = new EpisodeBuilder();
  lines.forEach(([from, text], i) => {
    const f = frame(from, i * 1000, Buffer.from(`${text}\n`));
    log.add(f);
    const value = jsonOf(frame(from, i * 1000, Buffer.from(text)));
    if (value !== undefined && readsBack(value)) plain.entry({ t_ms: i * 1000, from, message: value as Json });
  });
  return { kept: log.episode(), plain: plain.finish(HEADER) };
}

const initialize = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"clientInfo":{"name":"host-a","version":"1"}}}';
const call = (id: number, name: string, method = "tools/call") => `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":{"name":"${name}","arguments":{"q":"x"}}}`;
const answer = (id: number, text: string) => `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"${text}"}]}}`;

describe("the session log's Episode", function () {
  it("is the Episode of every line parsed, though it skips the lines the Episode has no use for", function () {
    const { kept, plain } = both([
      ["client", initialize],
      ["server", '{"jsonrpc":"2.0","id":0,"result":{"serverInfo":{"name":"srv"}}}'],
      ["client", '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}'],
      ["server", answer(99, "an answer nobody waits for")],
      ["client", call(1, "lookup")],
      // Escaped, the method's text is not in the bytes as written: it must still be read.
      ["client", call(2, "update", "tools\\/call")],
      ["client", '{"jsonrpc":"2.0","method":"notifications\\/cancelled","params":{"requestId":2}}'],
      ["client", '{"jsonrpc":"2.0","id":3,"method":"ping"}'],
      ["server", answer(1, "found")],
      ["server", answer(2, "changed")],
      ["server", '{"jsonrpc":"2.0","id":3,"result":{}}'],
    ]);
    assert.deepEqual(kept, plain);
    assert.equal(kept.agent_model, "host-a");
    const calls = kept.events.flatMap((e) => (e.kind === "assistant" ? e.calls.map((c) => c.name) : []));
    assert.deepEqual(calls, ["lookup", "update"]);
  });

  it("reads every line while the client has not named itself", function () {
    // Before initialize (or a 2026-07-28 request's _meta) names the client, any request may.
    const { kept, plain } = both([
      ["client", '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"modern-host","version":"1"}}}}'],
      ["client", call(2, "lookup")],
      ["server", answer(2, "found")],
    ]);
    assert.deepEqual(kept, plain);
    assert.equal(kept.agent_model, "modern-host");
  });
});

describe("mayHoldText", function () {
  it("says no only when neither the text nor an escape is in the line", function () {
    const line = (s: string) => Buffer.from(s);
    assert.equal(mayHoldText(line('{"method":"tools/call"}'), "tools/call"), true);
    assert.equal(mayHoldText(line('{"method":"notifications/progress"}'), "tools/call"), false);
    assert.equal(mayHoldText(line('{"method":"tools\\/call"}'), "tools/call"), true);
    assert.equal(mayHoldText(line('{"method":"tools\\u002fcall"}'), "tools/call"), true);
    assert.equal(mayHoldText(new Uint8Array(line('{"a":"tools/call"}')), "tools/call"), true);
  });
});
