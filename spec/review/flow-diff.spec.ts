/**
 * `stretto flow-diff` (docs/flow-review.md): what changed between two flows, the
 * changes that need review (exit 1) and those only listed (exit 0), errors (exit 2), through
 * the real binary on the published flow and flows edited from it.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireFixture } from "../flow/flow-fixture.js";
import { cleanTemp, killAll, tempDir } from "../helpers/processes.js";
import { P1, fold, withArbiter, withReach } from "./flow-kinds.js";
import { actionId, after as followers } from "./recount.js";
import { bullets, diff, edited, parseFlowJson, programWithBound, stretto, writeFlow, type FlowJson } from "./review-helpers.js";

type SiteSource = NonNullable<FlowJson["bindings"]["site_sources"]>[number];

const NOTHING =
  "Nothing needs review: the flow runs the same program, and calls no tool, makes no lookup, binds no argument and asks no model or question it did not before.\n";

/** The review items of a diff's Markdown. */
function needsReview(md: string): string[] {
  const start = md.indexOf("**Needs review:**\n\n");
  if (start === -1) return [];
  return md
    .slice(start + 19)
    .split("\n\n")[0]!
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
}

/** Every `## ` heading of a diff, in order. */
function headings(md: string): string[] {
  return md.split("\n").filter((l) => l.startsWith("## ")).map((l) => l.slice(3));
}

describe("stretto flow-diff", function () {
  let flow: FlowJson;
  before(function () {
    flow = parseFlowJson(requireFixture(this));
  });
  after(() => {
    killAll();
    cleanTemp();
  });

  it("a flow against itself: nothing needs review, no section, exit 0", async () => {
    const r = await diff(flow, flow);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `# Flow diff: retail\n\n${NOTHING}`);
    assert.equal(r.stderr, "");
  });

  it("a flow that now asks a model needs review (exit 1, the count on stderr); dropping it does not", async () => {
    const arbiter = withArbiter(flow);
    const r = await diff(flow, arbiter);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, "stretto: 1 change(s) need review\n");
    assert.deepEqual(needsReview(r.stdout), ["the flow now asks `jev-latest` at each decision, with the predicates `p1`"]);
    assert.deepEqual(bullets(r.stdout, "Arbiter"), ["now has an arbiter, fitted on 36 held-out decisions, which asks `jev-latest`, with the predicates `p1`"]);
    assert.deepEqual(bullets(r.stdout, "Provenance"), ["held-out decisions behind the arbiter: 0 → 36"]);
    const bare = edited(arbiter, (f) => ((f["predicates"] = []), (f["weighed"] = [])), false);
    assert.deepEqual(needsReview((await diff(flow, bare)).stdout), ["the flow now asks `jev-latest` at each decision"]);
    const back = await diff(arbiter, flow);
    assert.equal(back.code, 0, back.stderr);
    assert.ok(back.stdout.includes(NOTHING));
    assert.deepEqual(bullets(back.stdout, "Arbiter"), ["no longer has an arbiter: the habit alone decides"]);
    assert.deepEqual(bullets((await diff(withArbiter(withReach(flow)), withReach(flow))).stdout, "Arbiter"), ["no longer has an arbiter: `reach` decides"]);
  });

  it("an arbiter that changed its model, predicates and weights", async () => {
    const arbiter = withArbiter(flow);
    const changed = edited(arbiter, (f) => {
      f["model"] = "jev-2";
      f["predicates"] = [{ ...P1, id: "p2", question: "Another?" }];
      f["weighed"] = [];
      f["folds"] = [fold(), fold(), fold(), fold(), fold()].map((x) => ({ ...x, weights: x.weights.slice(0, 5) }));
      f["provenance"]["sources"] = ["elsewhere"];
      f["provenance"]["arbiter_cases"] = 99;
    }, false);
    const r = await diff(arbiter, changed);
    assert.equal(r.code, 1);
    assert.deepEqual(needsReview(r.stdout), ["the System-One model is now `jev-2`", "the flow asks new or reworded predicates: `p2`"]);
    assert.deepEqual(bullets(r.stdout, "Arbiter"), [
      "asks `jev-2` instead of `jev-latest`",
      "asks new or reworded predicates: `p2`",
      "no longer asks `p1`",
      "weighs none (was `p1`)",
    ]);
    assert.deepEqual(bullets(r.stdout, "Provenance"), ["sources: openai/glm-5-fp8 → elsewhere", "held-out decisions behind the arbiter: 36 → 99"]);
    // The same predicates weighed: each weight that moved by the tolerance or more.
    const reweighed = edited(arbiter, (f) => (f["folds"] = [{ ...fold(), weights: [9, ...fold().weights.slice(1)] }]), false);
    const w = await diff(arbiter, reweighed);
    assert.equal(w.code, 0, w.stderr);
    assert.deepEqual(bullets(w.stdout, "Arbiter"), ["weight on ln the habit's probability: 1.000 → 9.000"]);
    assert.deepEqual(bullets((await diff(arbiter, reweighed, "--tolerance", "10")).stdout, "Arbiter"), []);
  });

  it("per-site thresholds: switching a site off is listed, switching it back on needs review, moving the bar is listed", async () => {
    const off = edited(flow, (f) => (f["thresholds"] = { get_user_details: 2 }));
    let r = await diff(flow, off);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(bullets(r.stdout, "Sites"), ["after `get_user_details`: no longer acts (switched off)", "after `get_user_details`: off (was: the served threshold)"]);
    assert.ok(bullets(r.stdout, "With the habit alone, at 0.3")[0]!.startsWith("after `get_user_details`: hands back: switched off (was: looks up "));
    r = await diff(off, flow);
    assert.equal(r.code, 1);
    assert.deepEqual(needsReview(r.stdout), ["the flow now acts after `get_user_details`, where it handed back"]);
    r = await diff(flow, edited(flow, (f) => (f["thresholds"] = { get_user_details: 0.1 })));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(bullets(r.stdout, "Sites"), ["after `get_user_details`: 0.10 (was: the served threshold)"]);
  });

  it("a new constant needs review, a changed one too, a dropped one is listed", async () => {
    const c = (v: number) => edited(flow, (f) => (f["bindings"]["constants"] = [[["get_order_details", "page_size"], v]]));
    let r = await diff(flow, c(100));
    assert.equal(r.code, 1);
    assert.deepEqual(needsReview(r.stdout), ["a new constant: `get_order_details`'s `page_size` is always `100`"]);
    assert.deepEqual(bullets(r.stdout, "Constants"), ["`get_order_details` `page_size`: `100`"]);
    r = await diff(c(100), c(200));
    assert.deepEqual(needsReview(r.stdout), ["a changed constant: `get_order_details`'s `page_size` is now `200`"]);
    assert.deepEqual(bullets(r.stdout, "Constants"), ["`get_order_details` `page_size`: `100` → `200`"]);
    r = await diff(c(100), flow);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(bullets(r.stdout, "Constants"), ["`get_order_details` `page_size` no longer passes `100`"]);
  });

  it("a changed program needs review, line by line", async () => {
    const custom = edited(flow, (f) => (f["program"] = programWithBound({ op: "int", value: 1 })), false);
    const r = await diff(flow, custom);
    assert.equal(r.code, 1);
    assert.deepEqual(needsReview(r.stdout), ["the flow's run changed: its program is not the one it was"]);
    assert.deepEqual(bullets(r.stdout, "Run"), ["no longer runs `for i in 0..max_lookups {`", "now runs `for i in 0..1 {`"]);
    // The standard program written out is the standard program.
    const written = edited(flow, (f) => (f["program"] = programWithBound({ op: "var", name: "max_lookups" })), false);
    assert.equal((await diff(flow, written)).code, 0);
    const swapped = edited(flow, (f) => {
      const p = programWithBound({ op: "var", name: "max_lookups" });
      f["program"] = { ...p, body: [p.body[1], p.body[0], p.body[2]] };
    }, false);
    assert.deepEqual(bullets((await diff(flow, swapped)).stdout, "Run"), ["runs the same lines in another order"]);
  });

  it("a surprise gate added, moved or removed is listed, never flagged", async () => {
    const gated = edited(flow, (f) => (f["surprise"] = { window: 5, threshold: 2.5, quantile: 0.95 }));
    let r = await diff(flow, gated);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes("## Surprise\n\n- none: it never hands back for surprise → it hands back for the rest of a session once 5 of the agent's steps in a row average more than 2.50 nats of surprise, the 0.95 quantile of held-out training sessions' most surprising windows\n"), r.stdout);
    r = await diff(gated, flow);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes("surprising windows → none: it never hands back for surprise\n"));
    assert.equal((await diff(gated, gated)).stdout, `# Flow diff: retail\n\n${NOTHING}`);
  });

  it("what the agent did next: a share that moved by the tolerance, and the verdict it changes", async () => {
    // After get_user_details the agent now responds as often as it reads an order.
    const moved = edited(flow, (f) => {
      const site = actionId(f, "get_user_details");
      for (const [context, c] of f["habit"]["base"]["levels"][1]!) {
        if (Math.floor(context[0]! / 4096) !== site * 4) continue;
        const order = actionId(f, "get_order_details");
        const n = c["by_action"].find(([a]) => a === order)![1];
        c["by_action"] = c["by_action"].filter(([a]) => a !== 0).concat([[0, n]]);
        c["total"] = c["by_action"].reduce((s, [, k]) => s + k, 0);
      }
    }, false);
    const share = (f: FlowJson, action: string) => {
      const { counts, total } = followers(f, "get_user_details");
      return Math.round((100 * (counts.get(actionId(f, action)) ?? 0)) / total);
    };
    const r = await diff(flow, moved);
    assert.equal(r.code, 0, r.stderr);
    const next = bullets(r.stdout, "What the agent did next in training");
    assert.ok(next.includes(`after \`get_user_details\`: get_order_details ${share(flow, "get_order_details")}% → ${share(moved, "get_order_details")}%`), next.join("\n"));
    assert.ok(next.includes(`after \`get_user_details\`: respond ${share(flow, "respond")}% → ${share(moved, "respond")}%`), next.join("\n"));
    // At a threshold the new share no longer clears, the site now hands back.
    const acting = bullets((await diff(flow, moved, "--threshold", "0.5")).stdout, "With the habit alone, at 0.5");
    assert.equal(acting.length, 1, acting.join("\n"));
    assert.match(acting[0]!, /^after `get_user_details`: hands back: `get_order_details` .* \(was: looks up `get_order_details` .*\)$/);
    assert.deepEqual(bullets((await diff(flow, moved, "--tolerance", "0.9")).stdout, "What the agent did next in training"), []);
  });

  it("names each kind of change under its heading, in the order of the review", async () => {
    const old = edited(flow, (f) => {
      f["contracts"] = { a: "x", b: "y", d: "z" };
      f["map"]["fields"] = { get_user_details: [{ Scalar: "tier" }] };
    });
    const changed = edited(old, (f) => {
      f["manifest"]["tools"]["cancel_pending_order"] = "read";
      f["manifest"]["tools"]["get_item_details"] = "generic";
      f["manifest"]["tools"]["extra"] = "write";
      f["sites"]["every_read"] = true;
      f["sites"]["next"] = f["sites"]["next"].map(([k, v]) =>
        k[0] === "find_user_id_by_email" ? [k, {}] : k[0] === "get_user_details" ? [k, { ...v, get_product_details: 1 }] : [k, v],
      );
      f["bindings"]["sources"] = f["bindings"]["sources"].map(([k, s]) =>
        k[0] === "get_order_details" ? [k, { values: 9, found: [[["get_user_details", "$.orders[*].id"], 8]] }] : [k, s],
      );
      f["bindings"]["agreed"]["get_user_details"] = [
        [0, 4],
        [0, 0],
      ];
      f["bindings"]["named_other"] = { get_order_details: [0, 5] };
      f["contracts"] = { a: "w", c: "v", d: "z" };
      f["map"]["fields"] = { get_user_details: [{ Scalar: "tier" }], get_order_details: [{ Len: "items" }] };
      f["promoted"] = {
        bar: { threshold: 0.3, min_used: 0.7, min_lower: 0.5, min_tasks: 3 },
        sites: { get_order_details: { decisions: 4, lookups: 3, used: 1, tasks: 3, lower: 0.1, promoted: false } },
      };
      f["provenance"]["habit_episodes"] = 1234;
    });
    const r = await diff(old, changed);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `stretto: ${needsReview(r.stdout).length} change(s) need review\n`);
    assert.deepEqual(needsReview(r.stdout), [
      "`cancel_pending_order` is now marked read-only, so the flow may call it",
      "every read tool is now offered after every call",
      "a new lookup: `get_product_details` after `get_user_details`",
      "a new binding: `get_order_details`'s `order_id` from `get_user_details` at `$.orders[*].id`",
    ]);
    assert.deepEqual(bullets(r.stdout, "Tools"), ["`cancel_pending_order`: write → read", "`extra`: absent → write", "`get_item_details`: read → neither"]);
    const sites = bullets(r.stdout, "Sites");
    for (const s of [
      "every read tool is now offered after every call",
      "after `find_user_id_by_email`: no longer looks up `get_user_details`",
      "after `get_user_details`: may now look up `get_product_details`",
      "after `get_order_details`: no longer acts (not promoted)",
    ]) {
      assert.ok(sites.includes(s), `${s}\n${sites.join("\n")}`);
    }
    const binds = bullets(r.stdout, "Bindings");
    for (const s of [
      "`get_order_details` binds `order_id` from `get_user_details` at `$.orders[*].id`",
      "`get_order_details` no longer binds `order_id` from `get_user_details` at `$.orders[*]`",
      "`get_order_details`'s chance (another named): 0.90 → 0.26",
      "`get_user_details`'s chance (not mentioned): 0.75 → 0.17",
    ]) {
      assert.ok(binds.includes(s), `${s}\n${binds.join("\n")}`);
    }
    assert.deepEqual(bullets(r.stdout, "Pinned inputs"), ["`a`: `x` → `w`", "`b` no longer pinned", "`c` pinned: `v`"]);
    assert.deepEqual(bullets(r.stdout, "Code features"), ["`get_order_details`: none → `len(items)`"]);
    assert.deepEqual(bullets(r.stdout, "Promotion"), ["none: it may act after every call → 0 of 1 sites scored (at least 70% used, a lower bound of 0.50, 3 tasks, at 0.3)"]);
    assert.deepEqual(bullets(r.stdout, "Provenance"), ["the habit learned from 3 → 1,234 successful sessions or episodes"]);
    const order = ["Tools", "Run", "Sites", "With the habit alone, at 0.3", "What the agent did next in training", "Bindings", "Sources by site", "Constants", "Pinned inputs", "Code features", "Arbiter", "Promotion", "Surprise", "Provenance"];
    const seen = headings(r.stdout);
    assert.deepEqual(seen, order.filter((h) => seen.includes(h)));
    for (const h of seen) assert.ok(bullets(r.stdout, h).length > 0, h);
    // Back again: what was flagged is now a removal, listed only.
    const back = await diff(changed, old);
    // Lifting the promotion lets the flow act at every site again: each needs review.
    assert.deepEqual(needsReview(back.stdout), [
      "`get_item_details` is now marked read-only, so the flow may call it",
      "a new lookup: `get_user_details` after `find_user_id_by_email`",
      "the flow now acts after `find_user_id_by_email`, where it handed back",
      "the flow now acts after `find_user_id_by_name_zip`, where it handed back",
      "the flow now acts after `get_order_details`, where it handed back",
      "the flow now acts after `get_user_details`, where it handed back",
      "a new binding: `get_order_details`'s `order_id` from `get_user_details` at `$.orders[*]`",
    ]);
    assert.ok(bullets(back.stdout, "Sites").includes("only the lookups training showed are offered now"));
    assert.ok(bullets(back.stdout, "Sites").includes("after `get_order_details`: now acts"));
  });

  it("follows the source a binding tries first at each site", async () => {
    const source = (site: string, from: string, values: number): SiteSource => ({ tool: "get_user_details", arg: "user_id", site, source: [from, "$"], values });
    const [email, zip] = ["find_user_id_by_email", "find_user_id_by_name_zip"];
    const base = edited(flow, (f) => {
      f["bindings"]["sources"] = f["bindings"]["sources"].map(([k, s]) =>
        k[0] === "get_user_details" ? [k, { values: 16, found: [[[email, "$"], 8], [[zip, "$"], 8]] }] : [k, s],
      );
    });
    const was = edited(base, (f) => (f["bindings"]["site_sources"] = [source(email, email, 2), source(email, zip, 6), source(zip, email, 6), source(zip, zip, 2)]));
    const now = edited(was, (f) => (f["bindings"]["site_sources"]![0]!["values"] = 8));
    let r = await diff(was, now);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(bullets(r.stdout, "Sources by site"), [`\`get_user_details\` \`user_id\` after \`${email}\`: first from \`${zip}\` \`$\` → \`${email}\` \`$\``]);
    assert.deepEqual(headings(r.stdout), ["Sources by site"]);
    r = await diff(was, base);
    assert.deepEqual(bullets(r.stdout, "Sources by site"), [
      `\`get_user_details\` \`user_id\` after \`${email}\`: the most recent output first (was: \`${zip}\` \`$\`)`,
      `\`get_user_details\` \`user_id\` after \`${zip}\`: the most recent output first (was: \`${email}\` \`$\`)`,
    ]);
    r = await diff(base, was);
    assert.ok(bullets(r.stdout, "Sources by site").includes(`\`get_user_details\` \`user_id\` after \`${email}\`: first from \`${zip}\` \`$\` (was: the most recent output)`));
  });

  describe("errors", () => {
    it("a flow that cannot be read or is not a flow exits 2 naming it; --out writes the same Markdown", async () => {
      const dir = tempDir();
      const path = writeFlow(flow);
      const missing = join(dir, "missing.flow.json");
      let r = await stretto("flow-diff", path, missing);
      assert.equal(r.code, 2);
      assert.equal(r.stderr, `stretto: reading ${missing}: No such file or directory (os error 2)\n`);
      assert.equal(r.stdout, "");
      r = await stretto("flow-diff", missing, path);
      assert.equal(r.code, 2);
      assert.ok(r.stderr.includes(missing));
      const garbage = join(dir, "garbage.flow.json");
      writeFileSync(garbage, JSON.stringify({ stretto_flow: 1 }));
      r = await stretto("flow-diff", path, garbage);
      assert.equal(r.code, 2);
      // The loader's own words for what is missing (the proxy says the same after `loading {path}: `).
      assert.equal(r.stderr, `stretto: loading ${garbage}: missing field \`provenance\`\n`);
      writeFileSync(join(dir, "file"), "");
      r = await stretto("flow-diff", "--out", join(dir, "file", "diff.md"), path, path);
      assert.equal(r.code, 2);
      assert.ok(r.stderr.startsWith(`stretto: writing ${join(dir, "file", "diff.md")}: `), r.stderr);
      const out = join(dir, "reports", "diff.md");
      const arbiter = writeFlow(withArbiter(flow));
      r = await stretto("flow-diff", "--out", out, path, arbiter);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, "");
      assert.equal(readFileSync(out, "utf8"), (await stretto("flow-diff", path, arbiter)).stdout);
    });

    it("usage errors exit 2 with the usage line", async () => {
      const path = writeFlow(flow);
      for (const args of [[], [path], [path, path, path], ["--tolerance", "x", path, path], ["--threshold", "", path, path], ["--bogus", path, path]]) {
        const r = await stretto("flow-diff", ...args);
        assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
        assert.ok(r.stderr.endsWith("Usage: stretto flow-diff [--tolerance X] [--threshold P] [--out FILE] <OLD> <NEW>\n"), r.stderr);
      }
    });
  });
});
