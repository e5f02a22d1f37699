/** `--agent-only`: an episode without the proxy's own `stretto-*` lookups and their results. */
import assert from "node:assert/strict";
import type { Episode, EpisodeEvent } from "../../lib/trace/index.js";
import { agentOnly } from "../../lib/learn/index.js";

const turn = (...calls: [string, string][]): EpisodeEvent => ({
  kind: "assistant",
  text: null,
  calls: calls.map(([id, name]) => ({ id, name, arguments: {} })),
  usage: null,
});
const result = (id: string, name: string): EpisodeEvent => ({ kind: "tool_result", call_id: id, name, error: false, content: id });
const ep = (events: EpisodeEvent[]): Episode => ({ id: "s", task_id: "", trial: 0, domain: "d", agent_model: "m", reward: 1, events });

describe("learning from the agent's own calls", () => {
  it("drops the proxy's lookups and their results, a turn of only lookups, and keeps everything else", () => {
    const events: EpisodeEvent[] = [
      { kind: "user", text: "hi" },
      turn(["1", "find"]),
      result("1", "find"),
      turn(["stretto-1", "get_user"]),
      result("stretto-1", "get_user"),
      // A lookup the proxy made while an agent call of the same turn was in flight.
      turn(["2", "get_order"], ["stretto-2", "get_order"]),
      result("stretto-2", "get_order"),
      result("2", "get_order"),
      { kind: "assistant", text: "done", calls: [], usage: null },
    ];
    assert.deepEqual(agentOnly(ep(events)).events, [events[0], events[1], events[2], turn(["2", "get_order"]), events[7], events[8]]);
  });

  it("leaves an episode without lookups as it was", () => {
    const e = ep([{ kind: "user", text: "hi" }, turn(["1", "find"]), result("1", "find")]);
    assert.deepEqual(agentOnly(e), e);
  });
});
