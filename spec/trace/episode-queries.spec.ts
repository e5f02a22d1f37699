import assert from "node:assert/strict";
import { afterCall, succeeded, toolCalls, turnUsage, type Episode, type EpisodeEvent, type ToolCall } from "../../lib/trace/index.js";

const call = (id: string, order: string): ToolCall => ({ id, name: "get_order", arguments: { order_id: order } });
const result = (id: string): EpisodeEvent => ({ kind: "tool_result", call_id: id, name: "get_order", error: false, content: "{}" });
const ids = (ep: Episode): string[] => toolCalls(ep).map((c) => c.id);

describe("trace: Episode helpers", () => {
  const episode: Episode = {
    id: "e",
    task_id: "t",
    trial: 0,
    domain: "retail",
    agent_model: "agent",
    reward: 1,
    events: [
      { kind: "user", text: "My orders?" },
      { kind: "assistant", text: null, calls: [call("1", "#W1"), call("2", "#W2"), call("3", "#W3")], usage: null },
      // The second call answered first, then the third.
      result("2"),
      result("3"),
    ],
  };

  it("after_a_call_its_turns_calls_still_in_flight_are_set_apart", () => {
    // When the third returns, the second has too; the first is still on its way.
    const third = afterCall(episode, "3");
    assert.deepEqual(ids(third.episode), ["2", "3"]);
    assert.deepEqual(third.inFlight, [call("1", "#W1")]);
    assert.deepEqual(third.episode.events.slice(2), episode.events.slice(2));
    // When the second returned, the third was asked for too.
    const upto = { ...episode, events: episode.events.slice(0, 3) };
    const second = afterCall(upto, "2");
    assert.deepEqual(ids(second.episode), ["2"]);
    assert.equal(second.inFlight.length, 2);
    // A call no turn has leaves the episode as it is.
    const none = afterCall(episode, "9");
    assert.deepEqual(none.episode.events, episode.events);
    assert.deepEqual(none.inFlight, []);
    // The episode it was given is unchanged.
    assert.deepEqual(ids(episode), ["1", "2", "3"]);
  });

  it("succeeds at a reward of 1 (within 1e-9), and has one usage per turn", () => {
    assert.equal(succeeded(episode), true);
    assert.equal(succeeded({ ...episode, reward: 1 - 1e-10 }), true);
    assert.equal(succeeded({ ...episode, reward: 0.999 }), false);
    assert.deepEqual(turnUsage(episode), [null]);
  });
});
