import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { bindValue } from "../../lib/procedure/bind.js";
import { resultFeatures, scalarLeaves, textFeatures, parseResult } from "../../lib/procedure/features.js";
import type { Procedure } from "../../lib/procedure/ir.js";
import { compact } from "../../lib/procedure/json.js";
import { parseJson } from "../../lib/procedure/json-parse.js";
import { loadProcedure, procedureFromJson, procedureToJson } from "../../lib/procedure/load.js";
import { members, select, steps } from "../../lib/procedure/path.js";
import { runProcedure } from "../../lib/procedure/run.js";
import { RunState } from "../../lib/procedure/state.js";
import { findShape, givenIdentifiers, ticketWords } from "../../lib/procedure/text.js";
import { AIRPLANE, PhoneDouble, PUBLISHED, ScriptedTools } from "./procedure-fixtures.js";

const SIGNAL_TICKET =
  "No service; my number is 555-0199. They will consider the issue resolved when the status bar shows that they have signal.";

function withTree(p: Procedure, site: string, calls: Array<[string, number]>): Procedure {
  const trees = new Map(p.trees);
  trees.set(site, { calls });
  return { ...p, trees };
}

function stateWith(ticket: string, outputs: Array<[string, string]>): RunState {
  const s = new RunState(ticket, new Set(), true);
  for (const [tool, content] of outputs) s.outputs.push({ tool, value: parseResult(content) });
  return s;
}

describe("procedure library", () => {
  describe("the published procedure", () => {
    it("loads with the scalars, sets, trees and checks it was published with", () => {
      const p = loadProcedure(PUBLISHED);
      assert.equal(p.domain, "telecom");
      assert.equal(p.symbolic, true);
      assert.equal(p.max_calls, 50);
      assert.equal(p.handoff, "transfer_to_human_agents");
      assert.equal(compact(p.handoff_arguments), '{"summary":"The customer\'s issue needs a human agent."}');
      assert.equal(p.reads.size, 21);
      assert.equal(p.vocab.size, 171);
      assert.equal(p.trees.size, 39);
      assert.deepEqual(
        p.checks.map((c) => c.probe),
        ["can_send_mms", "run_speed_test", "check_status_bar"],
      );
      const start = p.trees.get("start")!;
      assert.ok("calls" in start);
      assert.equal(start.calls[0]![0], String.raw`get_customer_by_phone{"phone_number": "@ticket\\d{3}\\-\\d{3}\\-\\d{4}"}`);
      assert.equal(start.calls[0]![1], 690);
    });

    it("serializes and reads back with the same trees (round trip)", () => {
      const p = loadProcedure(PUBLISHED);
      const back = procedureFromJson(procedureToJson(p));
      assert.equal(back.trees.size, p.trees.size);
      assert.deepEqual([...back.trees], [...p.trees]);
      assert.deepEqual(back.fallback, p.fallback);
      assert.deepEqual(back.checks, p.checks);
    });

    it("with stretto_procedure set to 2 says format 2 is not supported", () => {
      const text = readFileSync(PUBLISHED, "utf8").replace('"stretto_procedure": 1', '"stretto_procedure": 2');
      assert.throws(() => procedureFromJson(text), /procedure format 2 is not supported \(this build reads 1\)/);
    });

    it("on an all-ok server makes the six calls worked out by hand, and hands back", async () => {
      const tools = new ScriptedTools(Array.from({ length: 10 }, () => ({ content: "ok", failed: false })));
      const run = await runProcedure(loadProcedure(PUBLISHED), "The customer at 555-123-4567 has no mobile data.", tools);
      assert.deepEqual(
        run.calls.map((c) => `${c.tool}${compact(c.arguments)}`),
        [
          'get_customer_by_phone{"phone_number":"555-123-4567"}',
          "check_status_bar{}",
          "toggle_data{}",
          "check_status_bar{}",
          'set_network_mode_preference{"mode":"4g_5g_preferred"}',
          "run_speed_test{}",
        ],
      );
      assert.equal(run.check, null);
      assert.equal(run.verdict, "hand_back");
      assert.equal(tools.log.length, 6, "no probe: the ticket states no outcome");
    });
  });

  describe("loading", () => {
    const minimal = () => JSON.parse(readFileSync(AIRPLANE, "utf8")) as Record<string, unknown>;
    const load = (v: unknown) => procedureFromJson(JSON.stringify(v));

    it("says what it could not read, parse, or recognise", () => {
      assert.throws(() => loadProcedure("/nonexistent/p.json"), {
        message: "reading /nonexistent/p.json: No such file or directory (os error 2)",
      });
      assert.throws(() => procedureFromJson(""), { message: "EOF while parsing a value at line 1 column 0" });
      assert.throws(() => procedureFromJson("x"), { message: "expected value at line 1 column 1" });
      const noVersion = "not a stretto procedure: no `stretto_procedure` version";
      for (const text of ["{}", "[1]", '{"stretto_procedure":"1"}', '{"stretto_procedure":1.0}', '{"stretto_procedure":-1}']) {
        assert.throws(() => procedureFromJson(text), { message: noVersion }, text);
      }
      assert.throws(() => procedureFromJson('{"stretto_procedure":7}'), {
        message: "procedure format 7 is not supported (this build reads 1)",
      });
    });

    it("names a missing field, a wrong type, and a node of neither shape", () => {
      const noDomain = minimal();
      delete noDomain["domain"];
      assert.throws(() => load(noDomain), { message: "missing field `domain`" });
      assert.throws(() => load({ ...minimal(), symbolic: "yes" }), {
        message: 'invalid type: string "yes", expected a boolean',
      });
      assert.throws(() => load({ ...minimal(), fallback: { feature: "x", yes: { calls: [] } } }), {
        message: "data did not match any variant of untagged enum Node",
      });
      assert.throws(() => load({ ...minimal(), trees: { start: { calls: [["a", -1]] } } }), {
        message: "data did not match any variant of untagged enum Node",
      });
    });

    it("ignores unknown fields, defaults provenance and handoff_arguments, and tries a split first", () => {
      const v = minimal();
      delete v["provenance"];
      delete v["handoff_arguments"];
      v["extra"] = 1;
      v["fallback"] = { feature: "f", yes: { calls: [["stop", 1]] }, no: { calls: [] }, calls: [["x", 1]] };
      const p = load(v);
      assert.equal(p.provenance, null);
      assert.equal(p.handoff_arguments.size, 0);
      assert.ok("feature" in p.fallback);
      v["fallback"] = { feature: "f", yes: { calls: [["stop", 1]] }, no: 5, calls: [["x", 1]] };
      assert.deepEqual(load(v).fallback, { calls: [["x", 1]] }, "a broken split beside calls is a leaf");
    });

    it("does not check actions until a run reaches them", async () => {
      const p = withTree(loadProcedure(AIRPLANE), "start", [["check_status_bar{oops", 1]]);
      await assert.rejects(runProcedure(p, "x", new PhoneDouble(false)), (err: Error) =>
        err.message.startsWith("action check_status_bar{oops: "),
      );
    });
  });

  describe("binding", () => {
    const outputs: Array<[string, string]> = [
      ["get_customer_by_phone", '{"customer_id":"C7","line_ids":["L7","L8"]}'],
      ["get_details_by_id", '{"line_id":"L7","phone_number":"555-0107"}'],
      ["get_details_by_id", '{"line_id":"L8","phone_number":"555-0108"}'],
      ["get_bills_for_customer", '[{"bill_id":"B1","status":"Paid"},{"bill_id":"B2","status":"Overdue"}]'],
    ];

    it("takes a list's next value not passed yet, the record the ticket names, a record like the one shown", () => {
      const s = stateWith("", outputs);
      assert.equal(bindValue("@get_customer_by_phone$.line_ids[*]", s, new Set(["L7"])), "L8");
      assert.equal(bindValue("@get_details_by_id$.line_id", s, new Set()), "L8");
      const named = stateWith("my number is 555-0107", outputs);
      assert.equal(bindValue("@get_details_by_id$.line_id", named, new Set()), "L7");
      assert.equal(bindValue('@get_bills_for_customer$[*].bill_id?{"status": "Overdue"}', s, new Set()), "B2");
      assert.equal(bindValue('@get_bills_for_customer$[*].bill_id?{"status": "Overdue"}', s, new Set(["B2"])), "B1");
      assert.equal(bindValue("@get_payment_methods$.id", s, new Set()), undefined);
      assert.equal(bindValue("@get_details_by_id", s, new Set()), undefined, "no $: no path");
      assert.equal(bindValue('@get_bills_for_customer$[*].bill_id?not json', s, new Set()), undefined);
      assert.equal(compact(bindValue(parseJson("4"), s, new Set())!), "4");
      assert.equal(bindValue("plain", s, new Set()), "plain");
    });

    it("binds @ticket shapes from the ticket", () => {
      const s = stateWith("call me at 555-0199", []);
      assert.equal(bindValue("@ticket\\d{3}\\-\\d{4}", s, new Set()), "555-0199");
      assert.equal(bindValue("@ticket\\d{5}", s, new Set()), undefined);
      assert.equal(bindValue("@ticket", s, new Set()), "", "the empty shape finds the empty text");
    });

    it("passes over a result with nothing at the path, for an older one", () => {
      const s = stateWith("", [
        ["get_details_by_id", '{"line_id":"L1","status":"Active"}'],
        ["get_details_by_id", '{"plan_id":"P1","name":"Premium"}'],
      ]);
      assert.equal(bindValue("@get_details_by_id$.line_id", s, new Set()), "L1");
    });
  });

  describe("features", () => {
    it("of a record: short strings, bools, integers, sizes and member statuses; no ids, floats or phones", () => {
      const fs = resultFeatures(
        parseResult(
          '{"status":"Active","line_id":"L1002","roaming":false,"data_gb":8.7,"items":[],"devices":{"a":{"status":"On"}},"phone":"555-123-2002","count":3}',
        ),
        false,
      );
      for (const f of ["error=False", "status=active", "roaming=false", "count=3", "devices.*.status=on", "len(items)=0", "len(devices)=1"]) {
        assert.ok(fs.includes(f), f);
      }
      assert.ok(!fs.some((f) => f.startsWith("line_id") || f.startsWith("phone=") || f.startsWith("data_gb")), fs.join());
      assert.deepEqual(resultFeatures(parseResult('{"n":15.0,"m":15,"big":18446744073709551616}'), false), [
        "error=False",
        "m=15",
      ]);
      assert.deepEqual(resultFeatures(null, true), ["error"]);
    });

    it("of a phone's text: key=part without digits, short says-lines", () => {
      const fs = resultFeatures(
        "Airplane Mode: OFF | SIM Card Status: active\nStatus Bar: 📶⁴ Excellent | 5G | 🔋 80%\nNo SIM card detected",
        false,
      );
      for (const f of ["airplane mode=off", "airplane mode=sim card status: active", "status bar=📶⁴ excellent", "says no sim card detected"]) {
        assert.ok(fs.includes(f), f);
      }
      assert.ok(!fs.some((f) => f.includes("5g") || f.includes("80%")), fs.join());
      assert.equal(textFeatures("Signal: good\n\n  \nNo SIM").length, 2);
      assert.deepEqual(textFeatures("a:b\r\nx".repeat(1) + "\n" + "y".repeat(61)), ["says a:b", "says x"]);
    });

    it("of shapes: strings inside strings, sizes, top-level scalars", () => {
      assert.equal(compact(parseResult('"{\\"a\\": 1}"')), '{"a":1}');
      assert.equal(parseResult('"plain"'), "plain");
      assert.equal(parseResult("not json"), "not json");
      assert.equal(parseResult(""), "");
      assert.ok(resultFeatures(parseResult('{"items":[1,2]}'), false).includes("len(items)=2+"));
      assert.ok(resultFeatures(parseResult("[]"), false).includes("len($)=0"));
      assert.deepEqual(resultFeatures(parseResult("7"), false), ["error=False"]);
      assert.deepEqual(scalarLeaves(parseJson('[15.0, 3, 2.5, true, null, "x"]')), ["15.0", "3", "2.5", "x"]);
    });

    it("of the ticket: words and pairs; identifiers keep their trailing punctuation", () => {
      assert.deepEqual(givenIdentifiers("Customer: John, phone number: 555-123-2002."), new Set(["555-123-2002."]));
      assert.ok(ticketWords("Abroad in France").includes("abroad in"));
      assert.deepEqual(ticketWords("No-service 4G!"), ["no", "service", "g", "no service", "service g"]);
    });

    it("paths and shapes: what selects nothing, and the shape language", () => {
      assert.deepEqual(steps("$x"), []);
      assert.deepEqual(select(parseJson('{"a":1}'), "$[*]"), []);
      assert.deepEqual(select(parseJson("[1]"), "$.a"), []);
      assert.deepEqual(members(parseJson('{"a":"b"}'), "$.a").records, []);
      assert.equal(findShape("A\\d", "xA1"), "A1");
      assert.equal(findShape("\\", "x"), undefined);
      assert.equal(findShape("\\d{x}", "123"), undefined);
      assert.equal(findShape("\\.\\d{2}", "a.5.67"), ".67");
    });

    it("keeps the record that names the ticket, if and only if the procedure is symbolic", () => {
      for (const symbolic of [true, false]) {
        const s = new RunState("Line L7001 has no service.", new Set(), symbolic);
        s.takeIn("get_details_by_id", '{"line_id":"L7001","status":"Active"}', false);
        s.takeIn("get_details_by_id", '{"line_id":"L7002","status":"Suspended"}', false);
        assert.equal(s.features().has("get_details_by_id:status=active"), symbolic, `symbolic ${symbolic}`);
        assert.equal(s.outputs.length, 2);
        s.takeIn("get_details_by_id", "", true);
        assert.equal(s.site, "get_details_by_id!");
        assert.ok(s.features().has("get_details_by_id:error"));
      }
    });
  });

  describe("a whole run (the airplane-mode procedure on a phone double)", () => {
    it("leaves airplane mode, resumes the line and is resolved by its check", async () => {
      const phone = new PhoneDouble(true);
      const run = await runProcedure(loadProcedure(AIRPLANE), SIGNAL_TICKET, phone);
      assert.deepEqual(
        run.calls.map((c) => c.tool),
        ["get_customer_by_phone", "check_status_bar", "toggle_airplane_mode", "check_status_bar", "resume_line"],
      );
      assert.equal(run.calls[0]!.arguments.get("phone_number"), "555-0199");
      assert.equal(run.calls[4]!.arguments.get("line_id"), "L9");
      assert.equal(run.verdict, "resolved");
      assert.deepEqual(run.check, ["check_status_bar", "Status Bar: 📶⁴ Excellent"]);
      assert.equal(phone.log.at(-1)!.tool, "check_status_bar", "the probe is the last call");
      assert.equal(phone.log.length, 6);
    });

    it("hands back when it stops in airplane mode, or finds no number", async () => {
      const stopping = withTree(loadProcedure(AIRPLANE), "check_status_bar", [["stop", 1]]);
      assert.equal((await runProcedure(stopping, SIGNAL_TICKET, new PhoneDouble(true))).verdict, "hand_back");
      const noNumber = await runProcedure(loadProcedure(AIRPLANE), "No service.", new PhoneDouble(true));
      assert.deepEqual(noNumber.calls, []);
      assert.equal(noNumber.verdict, "hand_back");
    });

    it("a hand-off ends the run as transferred, failed or not, with no check", async () => {
      const p = withTree(loadProcedure(AIRPLANE), "start", [["transfer_to_human_agents", 1]]);
      const phone = new PhoneDouble(true);
      const run = await runProcedure(p, SIGNAL_TICKET, phone);
      assert.equal(run.verdict, "transferred");
      assert.equal(run.check, null);
      assert.equal(run.calls[0]!.failed, true);
      assert.equal(phone.log.length, 1);
    });

    it("stops at max_calls, and never makes the same write twice", async () => {
      const base = loadProcedure(AIRPLANE);
      const capped = { ...base, max_calls: 2 };
      assert.equal((await runProcedure(capped, SIGNAL_TICKET, new PhoneDouble(true))).calls.length, 2);
      const none = { ...base, max_calls: 0 };
      const phone = new PhoneDouble(true);
      const zero = await runProcedure(none, SIGNAL_TICKET, phone);
      assert.deepEqual(zero.calls, []);
      assert.equal(zero.verdict, "hand_back", "the check still runs, in airplane mode");
      assert.equal(phone.log.length, 1);
      const looping = withTree(withTree(base, "start", [["toggle_airplane_mode", 1]]), "toggle_airplane_mode", [
        ["toggle_airplane_mode", 1],
        ["check_status_bar", 1],
      ]);
      const run = await runProcedure(looping, "x", new PhoneDouble(false));
      assert.deepEqual(run.calls.map((c) => c.tool), ["toggle_airplane_mode", "check_status_bar"]);
    });

    it("a literal procedure passes @ strings as written", async () => {
      const p = { ...loadProcedure(AIRPLANE), symbolic: false };
      const phone = new PhoneDouble(false);
      const run = await runProcedure(p, SIGNAL_TICKET, phone);
      assert.equal(run.calls[0]!.arguments.get("phone_number"), "@ticket\\d{3}\\-\\d{4}");
    });
  });
});
