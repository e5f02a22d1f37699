import assert from "node:assert/strict";
import { parseFlow } from "../../lib/flow/ir/load-flow.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";
import { checkProgram } from "../../lib/flow/program/compile-program.js";
import { FlowProgram, runLine } from "../../lib/flow/program/flow-program.js";
import { baseTrace } from "../../lib/flow/program/handlers.js";
import { parseProgram } from "../../lib/flow/program/parse-program.js";
import type { Program } from "../../lib/flow/program/program-types.js";
import { draw, HAND_BACK, logProb, RESPOND, type RunModel } from "../../lib/flow/program/run-model.js";
import { seededRandom } from "../../lib/flow/program/seeded-random.js";
import { standardProgram, STANDARD_PROGRAM_JSON } from "../../lib/flow/program/standard-program.js";
import { runSites, totalLogWeight, type Choice } from "../../lib/flow/program/trace.js";
import { requireFixture } from "./flow-fixture.js";

type Json = Record<string, unknown>;
const v = (name: string) => ({ op: "var", name });
const i = (value: number) => ({ op: "int", value });

function program(body: unknown[], ret: unknown = v("prev")): Program {
  return parseProgram({ fugue_program: 1, body, ret });
}

function compileError(p: Program): string {
  try {
    checkProgram(p);
  } catch (err) {
    return (err as Error).message;
  }
  assert.fail("the program compiled");
}

/** The standard run written by hand: the lookups it makes, each with whether it succeeded. */
function native(model: RunModel, tool: string, failed: boolean, maxLookups: number, random: () => number) {
  const choices: Choice[] = [];
  const steps: [string, boolean][] = [];
  for (let step = 0; step < maxLookups; step++) {
    const decide = model.decide(tool, failed);
    const d = draw(decide, random) as number;
    choices.push({ address: `decide#${step}`, value: d, logp: logProb(decide, d) });
    if (d === HAND_BACK) break;
    const lookup = decide.options[d]!;
    const outcome = model.outcome(lookup);
    const ok = draw(outcome, random) as boolean;
    choices.push({ address: `outcome#${step}`, value: ok, logp: logProb(outcome, ok) });
    steps.push([lookup, ok]);
    [tool, failed] = [lookup, !ok];
  }
  return { choices, steps };
}

/** A run's lookups read from its trace. */
function lookups(model: RunModel, choices: readonly Choice[]): [string, boolean][] {
  const at = new Map(choices.map((c) => [c.address, c.value]));
  const steps: [string, boolean][] = [];
  for (let n = 0; ; n++) {
    const d = at.get(`decide#${n}`);
    if (d === undefined || d === HAND_BACK) return steps;
    steps.push([model.tools[d as number]!, at.get(`outcome#${n}`) as boolean]);
  }
}

describe("the fugue program format", () => {
  it("reads the standard program's JSON form and writes it back unchanged", () => {
    const p = standardProgram();
    assert.deepEqual(JSON.parse(JSON.stringify(p)), JSON.parse(JSON.stringify(STANDARD_PROGRAM_JSON)));
    checkProgram(p);
  });

  it("checks the version, unknown fields, identifiers and the nesting limit", () => {
    assert.throws(() => parseProgram({ body: [], ret: i(0) }), { message: "invalid program JSON: missing field `fugue_program` (the program format version)" });
    assert.throws(() => parseProgram({ fugue_program: 3, body: [], ret: i(0) }), {
      message: "unsupported program format version 3: this build of fugue reads version 1",
    });
    assert.throws(() => parseProgram({ fugue_program: 1, body: [], ret: { op: "int", value: 1, x: 2 } }), /unknown field `x`/);
    assert.throws(() => parseProgram({ fugue_program: 1, body: [{ stmt: "loop" }], ret: i(0) }), /unknown statement `loop`/);
    assert.throws(() => parseProgram({ fugue_program: 1, body: [{ stmt: "let", var: "for", value: i(1) }], ret: i(0) }), {
      message: "variable name `for` is not an identifier (or is a reserved word)",
    });
    assert.throws(() => parseProgram({ fugue_program: 1, body: [{ stmt: "let", var: "a-b", value: i(1) }], ret: i(0) }), {
      message: "variable name `a-b` is not an identifier (or is a reserved word)",
    });
    // `ret` sits at level 2; each `not` adds one.
    const nested = (n: number): Json => (n === 0 ? { op: "bool", value: true } : { op: "not", arg: nested(n - 1) });
    assert.doesNotThrow(() => parseProgram({ fugue_program: 1, body: [], ret: nested(98) }));
    assert.throws(() => parseProgram({ fugue_program: 1, body: [], ret: nested(99) }), {
      message: "program nests 101 levels deep; the format allows at most 100",
    });
    assert.throws(() => parseProgram({ fugue_program: 1, body: [], ret: nested(5000) }), {
      message: "program nests 5002 levels deep; the format allows at most 100",
    });
  });

  it("the compile check names what does not resolve", () => {
    const sample = (dist: string, args: unknown[]) => ({ stmt: "sample", var: "x", addr: { name: "x" }, dist: { name: dist, args } });
    assert.equal(compileError(program([sample("Normal", [i(0), i(1)])], v("x"))), "unknown distribution `Normal`");
    assert.equal(compileError(program([sample("Decide", [v("call")])], v("x"))), "`Decide` takes 2 argument(s), got 1");
    assert.equal(compileError(program([sample("Outcome", [v("call"), v("call")])], v("x"))), "`Outcome` takes 1 argument(s), got 2");
    assert.equal(compileError(program([], v("nope"))), "unknown variable `nope`");
    assert.equal(compileError(program([{ stmt: "assign", var: "y", value: i(1) }], i(0))), "cannot assign to unknown variable `y` (bind it with `let` first)");
    assert.equal(compileError(program([{ stmt: "break" }], i(0))), "`break` outside of a `for` loop");
    assert.equal(compileError(program([], { op: "call", func: "exp", args: [i(1)] })), "unknown function `exp`");
    // A `let` inside a block is gone after it; the loop variable lives in the body.
    const scoped = program([{ stmt: "if", cond: { op: "bool", value: true }, then: [{ stmt: "let", var: "y", value: i(1) }] }], v("y"));
    assert.equal(compileError(scoped), "unknown variable `y`");
    assert.equal(compileError(program([{ stmt: "for", var: "k", start: i(0), end: i(1), body: [] }], v("k"))), "unknown variable `k`");
    // The data are bound: the standard program compiles.
    checkProgram(standardProgram());
  });

  it("orders a run line's sites by index, unindexed first", () => {
    const choices: Choice[] = [
      { address: "decide#10", value: 1, logp: -0.25 },
      { address: "outcome#10", value: true, logp: -0.25 },
      { address: "y", value: 0.5, logp: -0.25 },
      { address: "decide#2", value: 3, logp: -0.25 },
      { address: "x", value: -1, logp: -0.25 },
    ];
    assert.equal(
      JSON.stringify(runSites(choices)),
      '[["x",-1,-0.25],["y",0.5,-0.25],["decide#2",3,-0.25],["decide#10",1,-0.25],["outcome#10",true,-0.25]]',
    );
  });
});

describe("a flow's program on the published flow", () => {
  let flow: Flow;
  let fp: FlowProgram;
  before(function () {
    flow = parseFlow(requireFixture(this));
    fp = new FlowProgram(flow);
  });

  it("a decision offers handing back and the site's lookups", () => {
    const model = fp.model;
    const d = model.decide("get_user_details", false);
    assert.equal(d.site, "get_user_details");
    assert.deepEqual(d.options, model.options());
    assert.equal(d.options[HAND_BACK], RESPOND);
    assert.deepEqual(d.options, [RESPOND, ...flow.sites.reads]);
    assert.ok(Math.abs(d.probs.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    const offered = model.offered("get_user_details", false);
    assert.deepEqual(offered, ["get_order_details"]);
    d.options.forEach((option, k) => {
      if (k !== HAND_BACK) assert.equal(d.probs[k]! > 0, offered.includes(option), option);
    });
    const order = d.options.indexOf("get_order_details");
    assert.ok(d.probs[order]! > d.probs[HAND_BACK]!);
    // After the email lookup: get_user_details twice in training, nothing else.
    const email = model.decide("find_user_id_by_email", false);
    assert.equal(email.probs[HAND_BACK], 0.25);
    assert.equal(email.probs[email.options.indexOf("get_user_details")], 0.75);
    // A site never seen offers only handing back.
    const unseen = model.decide("no_such_tool", true);
    assert.equal(unseen.site, "no_such_tool (error)");
    assert.equal(unseen.probs[HAND_BACK], 1);
    assert.equal(unseen.probs.reduce((a, b) => a + b, 0), 1);
  });

  it("an outcome is the flat Beta mean of how the tool's calls went", () => {
    // get_user_details (id 9): 3 steps followed its successes, none its failures.
    assert.equal(fp.model.outcome("get_user_details").pOk, 0.8);
    assert.equal(fp.model.outcome("no_such_tool").pOk, 0.5);
  });

  it("tool ids: respond, the reads, the manifest's other tools; an unknown tool comes last", () => {
    assert.equal(fp.model.id("respond"), 0);
    assert.equal(fp.model.id("find_user_id_by_email"), 1);
    assert.equal(fp.model.tools.length, 17);
    assert.equal(fp.model.id("no_such_tool"), 17);
  });

  it("simulating makes offered lookups at addressed sites, and re-scores the same", () => {
    const start = "find_user_id_by_name_zip";
    let made = 0;
    for (let seed = 0; seed < 20; seed++) {
      const { value, trace } = fp.simulate(start, false, 4, seededRandom(seed));
      const steps = lookups(fp.model, trace.choices);
      assert.ok(steps.length <= 4);
      let [tool, failed] = [start, false];
      for (const [lookup, ok] of steps) {
        assert.ok(fp.model.offered(tool, failed).includes(lookup), `${lookup} after ${tool}`);
        [tool, failed] = [lookup, !ok];
      }
      assert.deepEqual(value, { t: "int", v: fp.model.id(tool) });
      const end = trace.choices.find((c) => c.address === `decide#${steps.length}`)?.value;
      assert.ok(steps.length === 4 || end === HAND_BACK);
      assert.equal(trace.choices.length, 2 * steps.length + (end === undefined ? 0 : 1));
      const scored = fp.score(start, false, 4, baseTrace(trace.choices));
      assert.ok(Math.abs(totalLogWeight(scored.trace) - totalLogWeight(trace)) < 1e-12);
      made += steps.length;
    }
    assert.ok(made > 0);
  });

  it("the program draws what the native run drew, bit for bit", () => {
    let made = 0;
    for (const tool of [...fp.model.tools, "no_such_tool"]) {
      for (const failed of [false, true]) {
        for (let seed = 0; seed < 25; seed++) {
          const expected = native(fp.model, tool, failed, 8, seededRandom(seed));
          const { trace } = fp.simulate(tool, failed, 8, seededRandom(seed));
          assert.deepEqual(trace.choices, expected.choices, `${tool} ${failed} ${seed}`);
          assert.equal(trace.logPrior, expected.choices.reduce((a, c) => a + c.logp, 0));
          assert.deepEqual(lookups(fp.model, trace.choices), expected.steps);
          made += expected.steps.length;
        }
      }
    }
    assert.ok(made > 100, `${made}`);
  });

  it("a flow holds its program: one that stops after a failed lookup runs as written", () => {
    const stops = structuredClone(STANDARD_PROGRAM_JSON) as unknown as { body: { body?: unknown[] }[] };
    stops.body[2]!.body!.splice(3, 0, { stmt: "if", cond: { op: "not", arg: v("ok") }, then: [{ stmt: "break" }] });
    const custom = new FlowProgram({ ...flow, program: parseProgram(stops) });
    let stopped = 0;
    for (let seed = 0; seed < 200; seed++) {
      const steps = lookups(custom.model, custom.simulate("find_user_id_by_name_zip", false, 8, seededRandom(seed)).trace.choices);
      steps.forEach(([, ok], k) => assert.ok(ok || k + 1 === steps.length, JSON.stringify(steps)));
      if (steps.length > 0 && !steps[steps.length - 1]![1]) stopped++;
    }
    assert.ok(stopped > 0);
  });

  it("a program that does not compile cannot be made", () => {
    const bad = program([{ stmt: "sample", var: "x", addr: { name: "x" }, dist: { name: "Nowhere", args: [] } }], v("x"));
    assert.throws(() => new FlowProgram({ ...flow, program: bad }), { message: "the flow's program: unknown distribution `Nowhere`" });
  });
});

describe("the live handler takes decisions and outcomes from the engine", () => {
  let flow: Flow;
  let fp: FlowProgram;
  before(function () {
    flow = parseFlow(requireFixture(this));
    fp = new FlowProgram(flow);
  });

  it("records the decision with logp 0 at decide#0 and scores the outcome ln P(ok)", async () => {
    const asked: string[] = [];
    const user = fp.model.id("get_user_details");
    const result = await fp.live("find_user_id_by_email", false, 8, {
      // Answers as promises, as an engine that waits (the arbiter, a lookup) gives them.
      decide: ({ address, site, options }) => {
        asked.push(`${address} ${site}`);
        assert.equal(options[0], RESPOND);
        return Promise.resolve(address === "decide#0" ? user : 0);
      },
      outcome: ({ tool }) => {
        asked.push(tool);
        return Promise.resolve(true);
      },
    });
    assert.deepEqual(asked, ["decide#0 find_user_id_by_email", "get_user_details", "decide#1 get_user_details"]);
    assert.deepEqual(result.trace.choices, [
      { address: "decide#0", value: user, logp: 0 },
      { address: "outcome#0", value: true, logp: Math.log(0.8) },
      { address: "decide#1", value: 0, logp: 0 },
    ]);
    assert.deepEqual(result.value, { t: "int", v: user });
    const line = runLine("find_user_id_by_email", false, 8, result);
    assert.equal(
      JSON.stringify(line),
      `{"call":"find_user_id_by_email","failed":false,"max_lookups":8,"sites":[["decide#0",${user},0],["outcome#0",true,${Math.log(0.8)}],["decide#1",0,0]],"surprise":${-Math.log(0.8)}}`,
    );
    // Re-scored from the run line, the outcome gets its logged logp, and the surprise matches.
    const scored = fp.score(line.call, line.failed, line.max_lookups, baseTrace(line.sites));
    const outcome = scored.trace.choices.find((c) => c.address === "outcome#0")!;
    assert.ok(Math.abs(outcome.logp - Math.log(0.8)) < 1e-12);
    assert.ok(Math.abs(-outcome.logp - line.surprise) < 1e-12);
    // Decide sites get their real ln P_Decide there.
    assert.equal(scored.trace.choices[0]!.logp, Math.log(0.75));
  });

  it("hands back on an answer that is not an option; a missing lookup counts as failed", async () => {
    for (const answer of [99, -1, 1.5]) {
      const { trace } = await fp.live("find_user_id_by_email", false, 8, { decide: () => answer, outcome: () => true });
      assert.deepEqual(trace.choices, [{ address: "decide#0", value: 0, logp: 0 }]);
    }
    let n = 0;
    const { trace } = await fp.live("find_user_id_by_email", false, 2, {
      decide: () => (n++ === 0 ? fp.model.id("get_user_details") : 0),
      outcome: () => undefined,
    });
    assert.deepEqual(trace.choices[1], { address: "outcome#0", value: false, logp: Math.log(1 - 0.8) });
    assert.equal(trace.logLikelihood, Math.log(1 - 0.8));
    // The next decision is at the failed site.
    assert.equal(trace.choices[2]!.address, "decide#1");
  });

  it("stops at max_lookups", async () => {
    const { trace } = await fp.live("get_order_details", false, 2, {
      decide: () => fp.model.id("get_order_details"),
      outcome: () => true,
    });
    assert.deepEqual(trace.choices.map((c) => c.address), ["decide#0", "outcome#0", "decide#1", "outcome#1"]);
  });

  it("scores observations into the likelihood and factors apart", () => {
    const p = program(
      [
        { stmt: "let", var: "prev", value: v("call") },
        { stmt: "observe", addr: { name: "y" }, dist: { name: "Outcome", args: [v("prev")] }, value: { op: "bool", value: true } },
        { stmt: "factor", logw: { op: "f64", value: -1.5 } },
      ],
      v("prev"),
    );
    const custom = new FlowProgram({ ...flow, program: p });
    const { trace } = custom.simulate("get_user_details", false, 0, seededRandom(0));
    assert.equal(trace.logLikelihood, Math.log(0.8));
    assert.equal(trace.logFactors, -1.5);
    assert.deepEqual(trace.choices, []);
  });

  it("a runtime error rejects the run with a warning instead of throwing", () => {
    const p = program([{ stmt: "let", var: "prev", value: { op: "add", lhs: v("call_failed"), rhs: i(1) } }], v("prev"));
    const custom = new FlowProgram({ ...flow, program: p });
    const { trace } = custom.simulate("get_user_details", false, 0, seededRandom(0));
    assert.equal(trace.logFactors, -Infinity);
    assert.deepEqual(trace.warnings, ["`prev`: `+` needs numbers, found bool"]);
  });
});
