/**
 * `stretto flow-show` (docs/flow-review.md): the published flow and flows edited
 * from it, each case of the review's layout, the options and the errors, through the real
 * binary. Expected numbers are re-counted from the flow file (recount.ts).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseFlow } from "../../lib/flow/ir/index.js";
import { flowView, showFlow } from "../../lib/review/index.js";
import { requireFixture } from "../flow/flow-fixture.js";
import { cleanTemp, killAll, tempDir } from "../helpers/processes.js";
import { fold, withArbiter, withReach } from "./flow-kinds.js";
import { pooledChance, share } from "./recount.js";
import { edited, parseFlowJson, programWithBound, row, show, stretto, writeFlow, type FlowJson } from "./review-helpers.js";

describe("stretto flow-show", function () {
  let flow: FlowJson;
  before(function () {
    flow = parseFlowJson(requireFixture(this));
  });
  after(() => {
    killAll();
    cleanTemp();
  });

  describe("the published flow", () => {
    it("names the flow, its tools by kind, the standard run, and every site with what it does there", async () => {
      const r = await show(flow);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "");
      const md = r.stdout;
      assert.ok(md.startsWith("# Flow: retail\n\nWritten by stretto 0.0.1 from openai/glm-5-fp8. The habit learned from 3 successful sessions or episodes. It has no arbiter: it decides with the habit alone and asks no one.\n\n## Tools\n\n"), md);
      const kinds = Object.entries(flow["manifest"]["tools"]);
      const listed = (kind: string) => kinds.filter(([, k]) => k === kind).map(([t]) => `\`${t}\``).sort().join(", ");
      assert.ok(md.includes(`- **Read, the only tools it may call:** ${listed("read")}\n`));
      assert.ok(md.includes(`- **Write, never called:** ${listed("write")}\n`));
      assert.ok(md.includes(`- **Neither, never called:** ${listed("generic")}\n`));
      assert.ok(md.includes("This is the standard run: decide, look up, and decide again"));
      assert.ok(md.includes("~~~text\nlet prev = call;\nlet failed = call_failed;\nfor i in 0..max_lookups {\n"));
      assert.ok(md.includes("what the flow does there with the habit alone at a threshold of 0.3, which is the likeliest lookup's share times"));
      assert.ok(md.includes("| After | Lookups it may make next (times seen) | What the agent did next in training | With the habit alone |\n|---|---|---|---|\n"));
      for (const [[tool]] of flow["sites"]["next"]) assert.ok(row(md, `\`${tool}\``), `no row for ${tool}`);
      assert.ok(!md.includes("## Promotion") && !md.includes("## Arbiter") && !md.includes("## Surprise") && !md.includes("## Constants"));
    });

    it("judges a site by the share of its likeliest lookup times its binding chance, re-counted from the file", async () => {
      const s = share(flow, "find_user_id_by_email", "get_user_details");
      const c = pooledChance(flow, "get_user_details");
      const expected = `\`get_user_details\` ${s.toFixed(2)} × ${c.toFixed(2)} = ${(s * c).toFixed(2)}`;
      const low = await show(flow);
      assert.ok(row(low.stdout, "`find_user_id_by_email`")!.endsWith(`| ${s * c >= 0.3 ? "looks up" : "hands back:"} ${expected} |`), low.stdout);
      // Above that probability the same site hands back, and the review says at which threshold.
      const high = await show(flow, "--threshold", String(Math.min(1, s * c + 0.01)));
      assert.ok(row(high.stdout, "`find_user_id_by_email`")!.endsWith(`| hands back: ${expected} |`), high.stdout);
      assert.ok(high.stdout.includes(`at a threshold of ${Math.min(1, s * c + 0.01)}, which`));
    });

    it("lists what the agent did next, largest share first, with the steps they are shares of", async () => {
      const { stdout } = await show(flow);
      const r = row(stdout, "`get_order_details`")!;
      const o = share(flow, "get_order_details", "get_order_details");
      const p = share(flow, "get_order_details", "get_product_details");
      assert.ok(r.includes(`| \`get_order_details\` (6), \`get_product_details\` (2) | get_order_details ${Math.round(100 * o)}%, get_product_details ${Math.round(100 * p)}%`), r);
      assert.match(r, /respond \d+% \(of \d+\) \|/);
    });

    it("shows each lookup's sources and chances, and the lookups it can never bind", async () => {
      const { stdout } = await show(flow);
      const user = row(stdout, "`get_user_details`")!;
      assert.ok(stdout.includes("| `get_user_details` | `user_id` | `find_user_id_by_email` at `$` (2 of 3) | 0.75 (2/2), 0.50 (0/0) |"), user);
      // A source found once is not trusted: `get_order_details` at `$.user_id` is left out.
      assert.ok(!stdout.includes("`$.user_id`"));
      assert.ok(stdout.includes("| `find_user_id_by_email` | `email` | nothing: the flow never makes this lookup | — |"));
    });

    it("writes the same Markdown to --out, making its folder, and nothing to stdout", async () => {
      const path = writeFlow(flow);
      const out = join(tempDir(), "a", "b", "review.md");
      const r = await stretto("flow-show", "--out", out, path);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "");
      assert.equal(readFileSync(out, "utf8"), (await stretto("flow-show", path)).stdout);
    });
  });

  describe("how each kind of flow decides", () => {
    it("a flow with reach counts is reviewed with reach", async () => {
      const { stdout } = await show(withReach(flow));
      assert.ok(stdout.includes("It has no arbiter and asks no one: it decides by how often each lookup came before the agent's next write (`reach`)."));
      assert.ok(stdout.includes("with `reach` at a threshold of 0.3, which is the likeliest lookup's share of the times the agent made it before its next write, times"));
      assert.ok(stdout.includes("| With `reach` |"));
    });

    it("an arbiter flow names its model, its weights and predicates, and with reach counts says reach serves them", async () => {
      const arbiter = withArbiter(withReach(flow));
      const { stdout } = await show(arbiter);
      assert.ok(stdout.includes("Its arbiter was fitted on 36 held-out decisions and asks `jev-latest`. It also counts how often each action came before the agent's next write, which `--flow-decider reach` serves."));
      // The arbiter's flow is reviewed without asking its model.
      assert.ok(stdout.includes("| With the habit alone |"));
      assert.ok(stdout.includes("## Arbiter\n\nOne fit, which judges every session.\n\n| Weight on | Value |\n|---|---|\n| ln the habit's probability | 1.000 |\n"));
      assert.ok(stdout.includes("| predicate `p1` | 2.000 |\n| the model's record at the site, on its pick | 0.125 |\n"));
      assert.ok(stdout.includes("at the held-out decisions of 1 sites: its pick was the agent's step at 50%, and the agent's step was among its options at 75%."));
      assert.ok(stdout.includes("- `p1` (weighed): Look it up?\n"));
    });

    it("folds fitted apart show their mean; a predicate asked but not weighed says so; none, no list", async () => {
      const apart = edited(withArbiter(flow), (f) => {
        f["weighed"] = [];
        f["folds"][1] = fold(6);
      }, false);
      const md = (await show(apart)).stdout;
      assert.ok(md.includes("Folds fitted apart, each judging the tasks the others saw; the weights are their mean."));
      assert.ok(md.includes("| ln the habit's probability | 2.000 |"), md);
      assert.ok(md.includes("- `p1` (asked, not weighed): Look it up?"));
      const plain = edited(withArbiter(flow), (f) => ((f["predicates"] = []), (f["weighed"] = [])), false);
      assert.ok(!(await show(plain)).stdout.includes("The predicates it asks"));
    });
  });

  describe("sites the flow may not act at", () => {
    it("a site switched off by its own threshold hands back, and the review says a search set it", async () => {
      const off = edited(flow, (f) => (f["thresholds"] = { get_user_details: 2 }));
      const { stdout } = await show(off);
      assert.ok(row(stdout, "`get_user_details`")!.endsWith("| hands back: switched off |"));
      assert.ok(stdout.includes("A search set the threshold at 1 of these sites (`thresholds`), and the table uses those. A site set above 1 is switched off."));
      assert.ok(!(await show(flow)).stdout.includes("A search set the threshold"));
    });

    it("a site's own threshold replaces the served one", async () => {
      const s = share(flow, "find_user_id_by_email", "get_user_details") * pooledChance(flow, "get_user_details");
      const strict = edited(flow, (f) => (f["thresholds"] = { find_user_id_by_email: Math.min(1, s + 0.01) }));
      assert.match(row((await show(strict)).stdout, "`find_user_id_by_email`")!, /\| hands back: `get_user_details` /);
    });

    it("a promoted flow acts only after the promoted sites, and shows the promotion's table", async () => {
      const record = (promoted: boolean) => ({ decisions: 4, lookups: 3, used: 3, tasks: 3, lower: 0.5, promoted });
      const promoted = edited(
        flow,
        (f) =>
          (f["promoted"] = {
            bar: { threshold: 0.3, min_used: 0.7, min_lower: 0.5, min_tasks: 3 },
            sites: { get_user_details: record(true), get_order_details: record(false) },
          }),
        false,
      );
      const { stdout } = await show(promoted);
      assert.match(row(stdout, "`get_user_details`")!, /\| looks up `get_order_details` /);
      assert.ok(row(stdout, "`get_order_details`")!.endsWith("| hands back: not promoted |"));
      // A site the promotion never scored is not promoted either.
      assert.ok(row(stdout, "`find_user_id_by_email`")!.endsWith("| hands back: not promoted |"));
      assert.ok(
        stdout.includes(
          "## Promotion\n\nThe flow acts only after the promoted calls, and hands back after the rest (`stretto promote`).\n\nA site is promoted when, at a threshold of 0.3, at least 70% of the flow's lookups there were ones the agent made in a later LLM turn, the 90% interval's lower bound on that share is at least 0.50, and the lookups came from at least 3 tasks.\n\n| After | Decisions | Lookups it would make | Made by the agent later | Lower bound | Tasks | Promoted |\n|---|---|---|---|---|---|---|\n| `get_order_details` | 4 | 3 | 3 (100%) | 0.50 | 3 | no |\n| `get_user_details` | 4 | 3 | 3 (100%) | 0.50 | 3 | yes |\n",
        ),
        stdout,
      );
    });
  });

  describe("what a flow holds beyond its sites", () => {
    it("a surprise gate has its own section; a format 1 flow cannot hold one", async () => {
      const gated = edited(flow, (f) => (f["surprise"] = { window: 5, threshold: 2.5, quantile: 0.95 }));
      const { stdout } = await show(gated);
      assert.ok(
        stdout.includes(
          "\n## Surprise\n\nThe flow hands back for the rest of a session once 5 of the agent's steps in a row average more than 2.50 nats of surprise, the 0.95 quantile of held-out training sessions' most surprising windows (`learn --surprise`).",
        ),
        stdout,
      );
      const v1 = edited(flow, (f) => (f["surprise"] = { window: 5, threshold: 2.5 }), false);
      const r = await show(v1);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^stretto: loading .*\.flow\.json: a flow with a surprise gate is format 2\n$/);
      const empty = await show(edited(flow, (f) => (f["surprise"] = { window: 0, threshold: 2.5 })));
      assert.equal(empty.code, 1);
      assert.match(empty.stderr, /: a surprise gate averages over one step or more\n$/);
    });

    it("no named source, every read offered, pinned inputs, code features, columns scored apart and a lookup with no arguments", async () => {
      const rich = edited(flow, (f) => {
        f["provenance"]["sources"] = [];
        f["sites"]["every_read"] = true;
        f["contracts"] = { get_user_details: "user_id:string!", cancel_pending_order: "order_id:string!" };
        f["map"]["fields"] = { get_order_details: [{ Scalar: "status" }, { Len: "items" }] };
        f["map"]["ids"] = [
          [["get_order_details", ["pending", "1"]], 1],
          [["get_order_details", ["delivered", "2+"]], 2],
        ];
        f["bindings"]["named_other"] = { get_user_details: [3, 4] };
        f["bindings"]["described_read"] = { get_product_details: [1, 2] };
        f["bindings"]["args"]["list_all_product_types"] = [5, {}];
      });
      const { stdout: md, code, stderr } = await show(rich);
      assert.equal(code, 0, stderr);
      assert.ok(md.includes("from no named source."));
      assert.ok(md.includes("## Sites\n\nEvery read tool is offered after every call (`--manifest-options`); the table lists those training showed.\n\n"));
      // Only lookups have pinned inputs.
      assert.ok(md.includes("## Pinned inputs\n\nEach lookup's arguments as the server listed them when the sessions were recorded."));
      assert.ok(md.includes("- `get_user_details`: `user_id:string!`\n") && !md.includes("- `cancel_pending_order`:"));
      assert.ok(md.includes("## Code features\n\nOutput fields that sharpen the habit. Their values are copied from training outputs into the flow (`map.ids`).\n\n- `get_order_details`: `status`, `len(items)`; 2 combinations of values\n"));
      assert.ok(md.includes(" Where the customer had named another value at the sources, a column counts"));
      assert.ok(md.includes(" Where the record the customer described had been read"));
      assert.ok(md.includes(" Another named (used/passed) | The described record read (used/passed) |\n|---|---|---|---|---|---|\n"));
      const bindings = md.slice(md.indexOf("## Bindings"));
      assert.ok(row(bindings, "`get_user_details`")!.endsWith(" | 0.75 (3/4) | 0.75, as not mentioned |"), row(bindings, "`get_user_details`"));
      assert.ok(row(bindings, "`get_product_details`")!.endsWith(" | 0.50, as not mentioned | 0.50 (1/2) |"), row(bindings, "`get_product_details`"));
      assert.ok(row(bindings, "`find_user_id_by_email`")!.endsWith("| — | — | — |"));
      assert.ok(bindings.includes("| `list_all_product_types` | none | made once | 1.00 (0/0), 1.00 (0/0) | 1.00, as not mentioned | 1.00, as not mentioned |"), bindings);
    });

    it("a constant is listed with its JSON value", async () => {
      const c = edited(flow, (f) => (f["bindings"]["constants"] = [[["get_order_details", "page_size"], 100], [["get_order_details", "sort"], "asc"]]));
      const { stdout } = await show(c);
      assert.ok(stdout.includes("\n## Constants\n\nArguments the agent passed with one value in every call of a lookup (`learn --constants`), which the binding passes as it did:\n\n- `get_order_details` `page_size`: `100`\n- `get_order_details` `sort`: `\"asc\"`\n"), stdout);
    });

    it("the order of sources at a site where the agent's own order decides", async () => {
      const ordered = edited(flow, (f) => {
        f["bindings"]["sources"] = f["bindings"]["sources"].map(([k, s]) =>
          k[0] === "get_user_details" ? [k, { values: 8, found: [[["find_user_id_by_email", "$"], 2], [["find_user_id_by_name_zip", "$"], 6]] }] : [k, s],
        );
        f["bindings"]["site_sources"] = [
          { tool: "get_user_details", arg: "user_id", site: "find_user_id_by_email", source: ["find_user_id_by_email", "$"], values: 2 },
          { tool: "get_user_details", arg: "user_id", site: "find_user_id_by_email", source: ["find_user_id_by_name_zip", "$"], values: 6 },
        ];
      });
      const { stdout } = await show(ordered);
      assert.ok(stdout.includes("- `get_user_details` `user_id`, after `find_user_id_by_email`: `find_user_id_by_name_zip` `$` (6), `find_user_id_by_email` `$` (2)\n"), stdout);
      assert.ok(!(await show(flow)).stdout.includes("## Sources by site"));
    });

    it("a site offers what it can bind, or nothing", async () => {
      const odd = edited(flow, (f) => {
        const next = f["sites"]["next"];
        next.push([["cancel_pending_order", false], { respond: 3 }]);
        next.push([["get_order_details", true], { get_order_details: 1 }]);
        next.push([["calculate", false], { a_catalog: 2 }]);
        next.push([["transfer_to_human_agents", false], { get_offer: 2 }]);
        f["manifest"]["docs"]!["get_offer"] = { summary: "An offer.", args: {} };
      }, false);
      const { stdout, code, stderr } = await show(odd);
      assert.equal(code, 0, stderr);
      assert.ok(stdout.includes("| `cancel_pending_order` | `respond` (3) |"), stdout);
      assert.ok(row(stdout, "`cancel_pending_order`")!.endsWith("| hands back: no lookup offered |"));
      assert.ok(row(stdout, "`get_order_details` (failed)"));
      assert.ok(row(stdout, "`calculate`")!.endsWith("| hands back: `a_catalog` 0.00, which it cannot bind |"));
      assert.ok(row(stdout, "`transfer_to_human_agents`")!.endsWith("`get_offer` 0.00 × 1.00 = 0.00 |"));
    });

    it("a program that is not the standard one is shown as code to review", async () => {
      const custom = edited(flow, (f) => (f["program"] = programWithBound({ op: "int", value: 1 })), false);
      const { stdout } = await show(custom);
      assert.ok(stdout.includes("**This is not the standard run.** Review it as code the flow runs."));
      assert.ok(stdout.includes("\nfor i in 0..1 {\n"));
    });
  });

  describe("the view the Markdown is rendered from", () => {
    it("agrees with the review: each row ends with the site's verdict, and it acts only where it looks up", () => {
      for (const [f, threshold] of [
        [flow, 0.3],
        [flow, 0.9],
        [withReach(flow), 0.3],
        [withArbiter(flow), 0.3],
      ] as [FlowJson, number][]) {
        const parsed = parseFlow(JSON.stringify(f));
        const view = flowView(parsed, threshold);
        const md = showFlow(parsed, threshold);
        assert.equal(view.sites.length, f["sites"]["next"].length);
        for (const site of view.sites) {
          const label = site.failed ? `\`${site.tool}\` (failed)` : `\`${site.tool}\``;
          assert.ok(row(md, label)!.endsWith(`| ${site.verdict} |`), site.verdict);
          assert.equal(site.acts, site.verdict.startsWith("looks up"));
          assert.equal(site.lookups.filter((l) => l.acts).length, site.acts ? 1 : 0);
          for (const l of site.lookups) assert.ok(Math.abs(l.prob - l.weighedShare * (l.bindingChance ?? 0)) < 1e-12);
          const total = site.next.reduce((sum, n) => sum + n.share, 0);
          assert.ok(site.steps === 0 || Math.abs(total - 1) < 1e-9);
        }
      }
    });
  });

  describe("errors", () => {
    it("a file that cannot be read, or is not a flow, exits 1 naming it", async () => {
      const dir = tempDir();
      const missing = join(dir, "missing.flow.json");
      let r = await stretto("flow-show", missing);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, `stretto: reading ${missing}: No such file or directory (os error 2)\n`);
      assert.equal(r.stdout, "");
      r = await stretto("flow-show", dir);
      assert.equal(r.code, 1);
      assert.ok(r.stderr.startsWith(`stretto: reading ${dir}: Is a directory`), r.stderr);
      const garbage = join(dir, "garbage.flow.json");
      writeFileSync(garbage, "{not json");
      r = await stretto("flow-show", garbage);
      assert.equal(r.code, 1);
      assert.ok(r.stderr.startsWith(`stretto: loading ${garbage}: not a stretto flow: `), r.stderr);
      r = await show(edited(flow, (f) => (f["stretto_flow"] = 3), false));
      assert.equal(r.code, 1);
      assert.match(r.stderr, /: flow format 3 is not supported \(this build reads 1 and 2\)\n$/);
    });

    it("a report that cannot be written exits 1", async () => {
      const dir = tempDir();
      writeFileSync(join(dir, "file"), "");
      const r = await stretto("flow-show", "--out", join(dir, "file", "review.md"), writeFlow(flow));
      assert.equal(r.code, 1);
      assert.ok(r.stderr.startsWith(`stretto: writing ${join(dir, "file", "review.md")}: `), r.stderr);
    });

    it("usage errors exit 2 with the usage line", async () => {
      const path = writeFlow(flow);
      for (const args of [[], [path, path], ["--threshold", "abc", path], ["--threshold", "-1", path], ["--bogus", path], ["--threshold"]]) {
        const r = await stretto("flow-show", ...args);
        assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
        assert.ok(r.stderr.endsWith("Usage: stretto flow-show [--threshold P] [--out FILE] <FILE>\n"), r.stderr);
        assert.equal(r.stdout, "");
      }
      const help = await stretto("flow-show", "--help");
      assert.equal(help.code, 0);
      assert.ok(help.stdout.includes("--threshold P"));
    });
  });
});

