/**
 * Code features (facts-flows §5.1 step 5): a field of a tool's output that tells what the
 * agent does next is learned into the flow's `map` and the habit's symbols; a field that
 * tells nothing is not.
 */
import assert from "node:assert/strict";
import type { Episode, EpisodeEvent } from "../../lib/trace/index.js";
import { learnFlow } from "../../lib/learn/index.js";
import { encode, habitPredict, steps, vocabIds } from "../../lib/flow/decide/index.js";
import { flowText, parseFlow, type Flow } from "../../lib/flow/ir/index.js";

let ids = 0;
function call(name: string, args: Record<string, string>, result: string): EpisodeEvent[] {
  const id = String(++ids);
  return [
    { kind: "assistant", text: null, calls: [{ id, name, arguments: args }], usage: null },
    { kind: "tool_result", call_id: id, name, error: false, content: result },
  ];
}

/** Read an order; close it when it is open, else say it is closed. Its total says nothing. */
function session(n: number, open: boolean): Episode {
  const order = JSON.stringify({ order_id: `ord_${n}`, status: open ? "open" : "closed", total: n % 3 === 0 ? 30 : 12 });
  const events: EpisodeEvent[] = [{ kind: "user", text: `close ord_${n}` }, ...call("get_order", { order_id: `ord_${n}` }, order)];
  if (open) events.push(...call("close_order", { order_id: `ord_${n}` }, "closed"));
  events.push({ kind: "assistant", text: open ? "Closed." : "It was closed already.", calls: [], usage: null });
  return { id: `s${n}`, task_id: "", trial: 0, domain: "shop", agent_model: "m", reward: 1, events };
}

const manifest = { domain: "shop", tools: { close_order: "write" as const, get_order: "read" as const }, docs: {} };
const learned = (eps: Episode[]): Flow =>
  learnFlow({ episodes: eps, manifest, contracts: new Map(), constants: false, version: "t", nowMs: 0 });

function pClose(flow: Flow, status: string): number {
  const ep = session(1, status === "open");
  // The episode up to the order's result: one step, the read.
  const s = steps({ ...ep, events: ep.events.slice(0, 3) }).map((x) => (x.kind === "call" ? { ...x, output: JSON.stringify({ order_id: "ord_1", status, total: 12 }) } : x));
  return habitPredict(flow.habit, flow.group, encode(flow, s))[vocabIds(flow)("close_order")]!;
}

describe("learning code features", () => {
  const eps = Array.from({ length: 40 }, (_, i) => session(i + 1, i % 2 === 0));

  it("learns the field that tells what comes next, and not the one that does not", () => {
    const flow = learned(eps);
    assert.deepEqual([...flow.map.fields], [["get_order", [{ kind: "scalar", path: "$.status" }]]]);
    assert.deepEqual([...flow.map.ids], [
      [["get_order", ["closed"]], 1],
      [["get_order", ["open"]], 2],
    ]);
    assert.ok(pClose(flow, "open") > 0.9, `after an open order: ${pClose(flow, "open")}`);
    assert.ok(pClose(flow, "closed") < 0.1, `after a closed order: ${pClose(flow, "closed")}`);
    // Written and read back, the map and the habit's feature symbols are the same.
    const again = parseFlow(flowText(flow));
    assert.equal(pClose(again, "open"), pClose(flow, "open"));
  });

  it("learns none from too few sessions to gain 5 nats", () => {
    const flow = learned(eps.slice(0, 2));
    assert.equal(flow.map.fields.size, 0);
    assert.equal(flow.map.ids.size, 0);
  });
});
