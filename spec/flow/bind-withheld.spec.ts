/**
 * What a flow may call and the source paths, with worked vectors
 * (`paths_generalize_array_indices`, `a_path_finds_nothing_where_the_output_has_another_shape`,
 * `--flow-tools`, a changed contract) and the published flow.
 */
import assert from "node:assert/strict";
import {
  atPath,
  findPaths,
  learnListedTools,
  leftToTheAgent,
  mentions,
  parseOutput,
  withheld,
  type ListedTools,
} from "../../lib/flow/bind/index.js";
import { parseFlow } from "../../lib/flow/ir/load-flow.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";
import type { Json } from "../../lib/trace/json.js";
import { requireFixture } from "./flow-fixture.js";

const schema = (props: Record<string, string>, required: string[] = []): Json => ({
  type: "object",
  properties: Object.fromEntries(Object.entries(props).map(([k, t]) => [k, { type: t }])),
  required,
});

function listing(tools: Json[]): ListedTools {
  return learnListedTools({ tools });
}

describe("what a flow may call", () => {
  let flow: Flow;
  before(function () {
    flow = parseFlow(requireFixture(this));
  });
  const pinned = (): Flow => ({ ...flow, contracts: new Map([["get_user_details", "user_id:string!"]]) });

  it("looks up only the manifest's read tools", () => {
    assert.equal(withheld("cancel_pending_order", { flow }), "the flow does not read it");
    assert.equal(withheld("calculate", { flow }), "the flow does not read it");
    assert.equal(withheld("no_such_tool", { flow }), "the flow does not read it");
    assert.equal(withheld("get_user_details", { flow }), undefined);
  });

  it("looks up only what --flow-tools grants, by either name", () => {
    assert.equal(withheld("get_user_details", { flow, flowTools: ["get_order_details"] }), "--flow-tools does not grant it");
    assert.equal(withheld("get_user_details", { flow, flowTools: ["get_order_details", "get_user_details"] }), undefined);
    const qualified: Flow = { ...flow, manifest: { ...flow.manifest, tools: new Map([["shop::get_user_details", "read"]]) } };
    const ownName = (t: string): string => t.replace(/^.*::/, "");
    assert.equal(withheld("shop::get_user_details", { flow: qualified, flowTools: ["get_user_details"], ownName }), undefined);
    assert.equal(withheld("shop::get_user_details", { flow: qualified, flowTools: ["shop::get_user_details"], ownName }), undefined);
    assert.equal(withheld("shop::get_user_details", { flow: qualified, flowTools: ["other"], ownName }), "--flow-tools does not grant it");
  });

  it("trusts its manifest before any tools/list", () => {
    assert.equal(withheld("get_user_details", { flow: pinned(), listed: undefined }), undefined);
    assert.equal(withheld("get_user_details", { flow: pinned(), listed: new Map() }), undefined);
  });

  it("withholds a tool the server no longer lists or marks as a write", () => {
    const listed = listing([{ name: "get_order_details", annotations: { readOnlyHint: true } }]);
    assert.equal(withheld("get_user_details", { flow, listed }), "the server no longer lists it");
    const write = listing([{ name: "get_user_details", annotations: { readOnlyHint: false }, inputSchema: schema({ user_id: "string" }, ["user_id"]) }]);
    assert.equal(withheld("get_user_details", { flow, listed: write }), "the server marks it as a write");
  });

  it("withholds a pinned tool listed without a hint; allows an unpinned one", () => {
    const noHint = listing([{ name: "get_user_details", inputSchema: schema({ user_id: "string" }, ["user_id"]) }]);
    assert.equal(withheld("get_user_details", { flow: pinned(), listed: noHint }), "the server no longer marks it read-only");
    assert.equal(withheld("get_user_details", { flow, listed: noHint }), undefined);
  });

  it("withholds a tool whose input contract changed, and allows the same contract", () => {
    const same = listing([{ name: "get_user_details", annotations: { readOnlyHint: true }, inputSchema: schema({ user_id: "string" }, ["user_id"]) }]);
    assert.equal(withheld("get_user_details", { flow: pinned(), listed: same }), undefined);
    const changed = listing([
      { name: "get_user_details", annotations: { readOnlyHint: true }, inputSchema: schema({ user_id: "string", verbose: "boolean" }, ["user_id"]) },
    ]);
    assert.equal(
      withheld("get_user_details", { flow: pinned(), listed: changed }),
      "its input changed since the flow was learned (user_id:string! → user_id:string!, verbose:boolean)",
    );
    const noSchema = listing([{ name: "get_user_details", annotations: { readOnlyHint: true } }]);
    assert.equal(withheld("get_user_details", { flow: pinned(), listed: noSchema }), undefined);
  });

  it("learns listed tools by name, later listings replacing earlier ones", () => {
    const listed = listing([{ annotations: { readOnlyHint: true } }, { name: "a", annotations: { readOnlyHint: "yes" } }]);
    assert.deepEqual([...listed.keys()], ["a"]);
    assert.deepEqual(listed.get("a"), {});
    learnListedTools({ tools: [{ name: "a", annotations: { readOnlyHint: false } }] }, listed);
    assert.deepEqual(listed.get("a"), { readOnlyHint: false });
    assert.equal(learnListedTools({ nothing: 1 }).size, 0);
  });

  it("says on stderr which tool it leaves to the agent", () => {
    assert.equal(
      leftToTheAgent("get_user_details", "the server marks it as a write"),
      "stretto-proxy: the flow leaves get_user_details to the agent: the server marks it as a write",
    );
  });
});

describe("source paths", () => {
  it("paths_generalize_array_indices", () => {
    const v: Json = { items: [{ name: "Water Bottle", product_id: "p1" }, { name: "Desk Lamp", product_id: "p2" }] };
    assert.deepEqual(findPaths(v, "p2"), ["$.items[*].product_id"]);
    const found = atPath(v, "$.items[*].product_id");
    assert.equal(found[0]!.value, "p1");
    assert.deepEqual(found[1], { value: "p2", siblings: ["Desk Lamp"] });
    assert.ok(mentions("the desk lamp", "Desk Lamp"));
    assert.deepEqual(findPaths("user_7", "user_7"), ["$"]);
    assert.deepEqual(findPaths({ "Hotel Names": ["Ritz"] }, "Ritz"), ["$.Hotel Names[*]"]);
    assert.deepEqual(atPath({ "Hotel Names": ["Ritz", "Savoy"] }, "$.Hotel Names[*]"), [
      { value: "Ritz", siblings: [] },
      { value: "Savoy", siblings: [] },
    ]);
  });

  it("a_path_finds_nothing_where_the_output_has_another_shape", () => {
    assert.deepEqual(atPath({ a: 5 }, "$.a"), []);
    assert.deepEqual(atPath({ a: { b: "x" } }, "$.a[*]"), []);
    assert.deepEqual(atPath(["x"], "$.a"), []);
    assert.deepEqual(atPath({ a: "x" }, "$.b"), []);
  });

  it("reads an output as JSON, a listing of lines, or one string", () => {
    assert.deepEqual(parseOutput('{"a": 1}'), { a: 1 });
    assert.deepEqual(parseOutput("/n/a.md\r\n\n  /n/b.md  \n"), ["/n/a.md", "/n/b.md"]);
    assert.equal(parseOutput("/n/only.md"), "/n/only.md");
    assert.equal(parseOutput("user_7"), "user_7");
  });

  it("mentions a value with or without its leading #, never an empty one", () => {
    assert.ok(mentions("it's order w9\n", "#W9"));
    assert.ok(mentions("it's order #w9\n", "#W9"));
    assert.ok(!mentions("order w8\n", "#W9"));
    assert.ok(!mentions("###\n", "#"));
  });
});
