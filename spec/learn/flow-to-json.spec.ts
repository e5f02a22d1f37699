/**
 * Writing a flow (the learner's output, and any tool that changes a flow): what is written
 * loads back as the same flow, and writing it again gives the same bytes.
 */
import assert from "node:assert/strict";
import { flowFromJson, flowText, flowToJson, parseFlow } from "../../lib/flow/ir/index.js";
import { fixtureText, requireFixture } from "../flow/flow-fixture.js";

describe("writing a flow", () => {
  it("survives its IR: the published flow written, read and written again is the same", function () {
    requireFixture(this);
    const flow = parseFlow(fixtureText()!);
    const text = flowText(flow);
    const again = parseFlow(text);
    assert.equal(flowText(again), text);
    const original = JSON.parse(fixtureText()!) as Record<string, unknown>;
    const written = JSON.parse(text) as Record<string, unknown>;
    // The standard program it ran is now written out; every field it had is as it was.
    assert.deepEqual(Object.keys(written), [...Object.keys(original), "program"]);
    for (const key of Object.keys(original)) assert.deepEqual(written[key], original[key], key);
    assert.equal(again.version, 1);
  });

  it("is format 2 when a format-2 table holds something, and a v1 stamp on it is refused on load", function () {
    requireFixture(this);
    const flow = parseFlow(fixtureText()!);
    flow.bindings.bare.set("get_order_details", 1);
    const json = flowToJson(flow);
    assert.equal(json.stretto_flow, 2);
    assert.deepEqual(json.bindings.bare, { get_order_details: 1 });
    assert.throws(() => flowFromJson({ ...json, stretto_flow: 1 }), /is format 2/);
  });
});
