import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FlowLoadError, loadFlow, parseFlow } from "../../lib/flow/ir/load-flow.js";
import { PairMap } from "../../lib/flow/ir/pair-map.js";
import { standardProgram, STANDARD_PROGRAM_JSON } from "../../lib/flow/program/standard-program.js";
import { FIXTURE_PATH, requireFixture } from "./flow-fixture.js";
import { tempDir } from "../helpers/processes.js";

const V2_BINDINGS =
  "a flow with bindings scored where another value was named or the described record read, with sources ordered by site, with lists bound, with bare calls counted, or with constants, is format 2";

/** The fixture as a JSON object, changed by `edit`, back to text. */
type Doc = Record<string, unknown>;

/** The object under `key` in a document being edited. */
const obj = (d: Doc, key: string): Doc => d[key] as Doc;

function edited(text: string, edit: (doc: Doc) => void): string {
  const doc = JSON.parse(text) as Doc;
  edit(doc);
  return JSON.stringify(doc);
}

function loadError(text: string): string {
  try {
    parseFlow(text);
  } catch (err) {
    assert.ok(err instanceof FlowLoadError, `a FlowLoadError, got ${String(err)}`);
    return err.message;
  }
  assert.fail("the flow loaded");
}

describe("flow IR: loading", () => {
  let text: string;
  before(function () {
    text = requireFixture(this);
  });

  it("loads the published flow with its pair-list maps and the standard program", () => {
    const flow = loadFlow(FIXTURE_PATH);
    assert.equal(flow.version, 1);
    assert.equal(flow.manifest.domain, "retail");
    assert.equal(flow.vocab.length, 17);
    assert.deepEqual(flow.vocab[0], { kind: "respond" });
    assert.deepEqual(flow.vocab[4], { kind: "tool", tool: "find_user_id_by_email" });
    assert.deepEqual(flow.vocab[9], { kind: "tool", tool: "get_user_details" });
    assert.equal(flow.manifest.tools.size, 16);
    assert.equal([...flow.manifest.tools.values()].filter((k) => k === "read").length, 7);
    assert.equal(flow.habit.base.alpha, 8.017279693592648);
    assert.equal(flow.habit.base.vocabSize, 18);
    assert.deepEqual(flow.habit.base.levels.map((l) => l.size), [1, 12, 24]);
    assert.equal(flow.habit.base.levels[0]!.get([])!.total, 44);
    assert.deepEqual([...flow.habit.base.levels[1]!.get([65536])!.byAction], [[9, 2]]);
    assert.equal(flow.habit.top.size, 24);
    assert.equal(flow.habit.beta, flow.habit.base.alpha);
    assert.equal(flow.sites.reads.length, 7);
    assert.equal(flow.sites.next.size, 4);
    assert.deepEqual([...flow.sites.next.get(["find_user_id_by_email", false])!], [["get_user_details", 2]]);
    assert.deepEqual([...flow.sites.next.get(["get_order_details", false])!], [
      ["get_order_details", 6],
      ["get_product_details", 2],
    ]);
    assert.equal(flow.sites.next.get(["get_order_details", true]), undefined);
    assert.equal(flow.sites.everyRead, false);
    assert.equal(flow.bindings.args.size, 5);
    assert.deepEqual(flow.bindings.args.get("get_order_details"), { calls: 9, passed: new Map([["order_id", 9]]) });
    assert.equal(flow.bindings.sources.size, 7);
    const order = flow.bindings.sources.get(["get_order_details", "order_id"])!;
    assert.equal(order.values, 9);
    assert.equal(order.found.get(["get_user_details", "$.orders[*]"]), 8);
    const user = flow.bindings.sources.get(["get_user_details", "user_id"])!;
    assert.equal(user.found.get(["find_user_id_by_email", "$"]), 2);
    assert.equal(user.found.get(["get_order_details", "$.user_id"]), 1);
    assert.deepEqual(flow.bindings.agreed.get("get_product_details"), [[0, 0], [2, 3]]);
    assert.deepEqual(flow.folds, []);
    assert.equal(flow.model, "");
    assert.equal(flow.programGiven, false);
    assert.deepEqual(flow.program, standardProgram());
    assert.equal(flow.reach, undefined);
    assert.equal(flow.promoted, undefined);
    assert.equal(flow.thresholds.size, 0);
    assert.equal(flow.contracts.size, 0);
    assert.equal(flow.provenance.compiledUnixMs, 1790305515034);
  });

  it("reads numbers written either way (8.0 or 8)", () => {
    const asIntegers = text.replace(/(\d)\.0(?=[,\]}])/g, "$1");
    assert.notEqual(asIntegers, text);
    const a = parseFlow(text);
    const b = parseFlow(asIntegers);
    assert.deepEqual(b.habit.base.levels[1]!.get([65536]), a.habit.base.levels[1]!.get([65536]));
    assert.equal(b.habit.base.levels[0]!.get([])!.total, 44);
  });

  it("rejects what is not a stretto flow, naming why", () => {
    assert.match(loadError("{not json"), /^not a stretto flow: /);
    assert.equal(loadError("[]"), "not a stretto flow: invalid type: sequence, expected a flow object");
    assert.equal(loadError(edited(text, (d) => delete d["stretto_flow"])), "not a stretto flow: missing field `stretto_flow`");
    assert.equal(
      loadError(edited(text, (d) => (d["stretto_flow"] = "1"))),
      'not a stretto flow: invalid type: string "1", expected u32',
    );
    assert.equal(loadError(edited(text, (d) => (d["stretto_flow"] = -1))), "not a stretto flow: invalid value: integer `-1`, expected u32");
    assert.equal(loadError(edited(text, (d) => (d["stretto_flow"] = 1.5))), "not a stretto flow: invalid type: floating point `1.5`, expected u32");
  });

  it('rejects "stretto_flow": 99 and any version but 1 and 2', () => {
    assert.equal(loadError(edited(text, (d) => (d["stretto_flow"] = 99))), "flow format 99 is not supported (this build reads 1 and 2)");
    assert.equal(loadError(edited(text, (d) => (d["stretto_flow"] = 0))), "flow format 0 is not supported (this build reads 1 and 2)");
    assert.equal(parseFlow(edited(text, (d) => (d["stretto_flow"] = 2))).version, 2);
  });

  it("says which required field is missing or has the wrong type", () => {
    assert.equal(loadError(edited(text, (d) => delete d["vocab"])), "missing field `vocab`");
    assert.equal(loadError(edited(text, (d) => delete obj(d, "sites")["feeds"])), "missing field `feeds` at /sites");
    assert.match(loadError(edited(text, (d) => (obj(d, "sites")["reads"] = [1]))), /^invalid value at \/sites\/reads\/0: /);
    assert.match(loadError(edited(text, (d) => (d["group"] = "1"))), /^invalid value at \/group: /);
  });

  it("ignores unknown top-level fields", () => {
    assert.equal(parseFlow(edited(text, (d) => (d["from_the_future"] = { x: 1 }))).version, 1);
  });

  it("a format 1 flow may not have per-site thresholds; format 2 reads them", () => {
    const thresholds = { find_user_id_by_email: 0.5, get_user_details: 2 };
    assert.equal(loadError(edited(text, (d) => (d["thresholds"] = thresholds))), "a flow with per-site thresholds is format 2");
    const v2 = parseFlow(edited(text, (d) => ((d["stretto_flow"] = 2), (d["thresholds"] = thresholds))));
    assert.deepEqual([...v2.thresholds], [["find_user_id_by_email", 0.5], ["get_user_details", 2]]);
    // An empty map is no reason to refuse format 1.
    assert.equal(parseFlow(edited(text, (d) => (d["thresholds"] = {}))).thresholds.size, 0);
  });

  const v2Bindings: [string, unknown][] = [
    ["named_other", { get_order_details: [0, 4] }],
    ["described_read", { get_order_details: [0, 4] }],
    ["site_sources", [{ tool: "get_order_details", arg: "order_id", site: "get_user_details", source: ["get_user_details", "$.orders[*]"], values: 8 }]],
    ["lists", [[["get_order_details", "order_ids"], { values: 2, found: [[["get_user_details", "$.orders"], 2]] }]]],
    ["bare", { list_all_product_types: 3 }],
    ["constants", [[["get_order_details", "verbose"], true]]],
  ];
  for (const [field, value] of v2Bindings) {
    it(`a format 1 flow with bindings.${field} is format 2; format 2 reads it`, () => {
      assert.equal(loadError(edited(text, (d) => (obj(d, "bindings")[field] = value))), V2_BINDINGS);
      const flow = parseFlow(edited(text, (d) => ((d["stretto_flow"] = 2), (obj(d, "bindings")[field] = value))));
      assert.equal(flow.version, 2);
    });
  }

  it("normalizes format 2 bindings into maps", () => {
    const flow = parseFlow(
      edited(text, (d) => {
        d["stretto_flow"] = 2;
        for (const [field, value] of v2Bindings) obj(d, "bindings")[field] = value;
      }),
    );
    const b = flow.bindings;
    assert.deepEqual(b.namedOther.get("get_order_details"), [0, 4]);
    assert.deepEqual(b.describedRead.get("get_order_details"), [0, 4]);
    assert.equal(b.siteSources[0]!.site, "get_user_details");
    assert.equal(b.lists.get(["get_order_details", "order_ids"])!.found.get(["get_user_details", "$.orders"]), 2);
    assert.equal(b.bare.get("list_all_product_types"), 3);
    assert.equal(b.constants.get(["get_order_details", "verbose"]), true);
  });

  it("reads promoted, contracts, reach and every_read", () => {
    const flow = parseFlow(
      edited(text, (d) => {
        d["promoted"] = {
          bar: { threshold: 0.3, min_used: 0.5, min_lower: 0.3, min_tasks: 3 },
          sites: { find_account: { decisions: 10, lookups: 10, used: 10, tasks: 10, lower: 0.8, promoted: true } },
        };
        d["contracts"] = { get_order_details: "order_id:string!" };
        d["reach"] = obj(d, "habit")["base"];
        obj(d, "sites")["every_read"] = true;
      }),
    );
    assert.equal(flow.promoted!.bar.minTasks, 3);
    assert.equal(flow.promoted!.sites.get("find_account")!.promoted, true);
    assert.equal(flow.contracts.get("get_order_details"), "order_id:string!");
    assert.equal(flow.reach!.levels[2]!.size, 24);
    assert.equal(flow.sites.everyRead, true);
  });

  it("a program that does not compile does not load, naming the distribution", () => {
    const normal = {
      fugue_program: 1,
      body: [{ stmt: "sample", var: "x", addr: { name: "x" }, dist: { name: "Normal", args: [{ op: "f64", value: 0 }, { op: "f64", value: 1 }] } }],
      ret: { op: "var", name: "x" },
    };
    assert.equal(loadError(edited(text, (d) => (d["program"] = normal))), "the flow's program: unknown distribution `Normal`");
    const oneArg = structuredClone(STANDARD_PROGRAM_JSON) as unknown as { body: Array<{ body: Array<{ dist: { args: unknown[] } }> }> };
    oneArg.body[2]!.body[0]!.dist.args = [{ op: "var", name: "prev" }];
    assert.equal(loadError(edited(text, (d) => (d["program"] = oneArg))), "the flow's program: `Decide` takes 2 argument(s), got 1");
    const newer = { ...structuredClone(STANDARD_PROGRAM_JSON), fugue_program: 2 };
    assert.equal(
      loadError(edited(text, (d) => (d["program"] = newer))),
      "the flow's program: unsupported program format version 2: this build of fugue reads version 1",
    );
    const unknownField = { ...structuredClone(STANDARD_PROGRAM_JSON), extra: 1 };
    assert.match(loadError(edited(text, (d) => (d["program"] = unknownField))), /^the flow's program: invalid program JSON: unknown field `extra`/);
  });

  it("a flow holds its program: the file's when given", () => {
    const flow = parseFlow(edited(text, (d) => (d["program"] = STANDARD_PROGRAM_JSON)));
    assert.equal(flow.programGiven, true);
    assert.deepEqual(JSON.parse(JSON.stringify(flow.program)), JSON.parse(JSON.stringify(STANDARD_PROGRAM_JSON)));
  });

  it("a file that cannot be read says why", () => {
    const dir = tempDir("stretto-flow-load-");
    assert.throws(() => loadFlow(join(dir, "absent.flow.json")), {
      name: "FlowLoadError",
      message: "No such file or directory (os error 2)",
    });
    writeFileSync(join(dir, "v99.flow.json"), '{"stretto_flow":99}');
    assert.throws(() => loadFlow(join(dir, "v99.flow.json")), { message: "flow format 99 is not supported (this build reads 1 and 2)" });
  });
});

describe("flow IR: pair-list maps", () => {
  it("finds tuple keys by value, the last of a repeated key winning", () => {
    const m = new PairMap<[string, boolean], number>([
      [["a", false], 1],
      [["a", true], 2],
      [["a", false], 3],
    ]);
    assert.equal(m.size, 2);
    assert.equal(m.get(["a", false]), 3);
    assert.equal(m.get(["a", true]), 2);
    assert.equal(m.has(["b", false]), false);
  });
});
