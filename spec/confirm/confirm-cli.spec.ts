/**
 * `stretto confirm` over a τ²-bench results file, answered from a seeded replay cache: the
 * same requests as the proxy's judge (so its cached answers), the counts by group beside the
 * word list, the second question, the examples, the JSON, and the usage errors.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NODE, STRETTO, cleanTemp, run, tempDir } from "../helpers/processes.js";
import { cacheDir, seedYes } from "./seed.js";

const OFFER = "Order #W1 is pending. Shall I go ahead and cancel it?";
const CANCEL = { order_id: "#W1", reason: "no longer needed" };

/** A simulation: the customer asks, the agent offers, the customer answers `reply`, the agent cancels. */
function simulation(id: string, reward: number, reply: string, error = false) {
  return {
    id,
    task_id: id.slice(0, 1),
    trial: 0,
    reward_info: { reward },
    messages: [
      { role: "user", content: "Hi, I'm ann@x.com; please cancel #W1." },
      { role: "assistant", content: null, tool_calls: [{ id: `${id}-1`, name: "find_user_id_by_email", arguments: { email: "ann@x.com" } }] },
      { role: "tool", id: `${id}-1`, content: "ann_1" },
      { role: "assistant", content: OFFER },
      { role: "user", content: reply },
      { role: "assistant", content: "On it.", tool_calls: [{ id: `${id}-2`, name: "cancel_pending_order", arguments: CANCEL }] },
      { role: "tool", id: `${id}-2`, content: error ? "Error: order not pending" : '{"order_id":"#W1","status":"cancelled"}', error },
    ],
  };
}

describe("stretto confirm", () => {
  after(cleanTemp);

  it("judges each write as the proxy would, counts it by group beside the word list, and lists where they disagree", async () => {
    const dir = tempDir();
    const cache = cacheDir();
    await seedYes(cache, { proposal: OFFER, customer: "Yes, please." }, "cancel_pending_order", CANCEL, 0.9);
    await seedYes(cache, { proposal: OFFER, customer: "Yes, please." }, "cancel_pending_order", CANCEL, 0.2, "proposed");
    await seedYes(cache, { proposal: OFFER, customer: "Hmm, what is the refund method?" }, "cancel_pending_order", CANCEL, 0.1);
    await seedYes(cache, { proposal: OFFER, customer: "Hmm, what is the refund method?" }, "cancel_pending_order", CANCEL, 0.1, "proposed");
    const results = join(dir, "results.json");
    writeFileSync(
      results,
      JSON.stringify({
        info: { environment_info: { domain_name: "retail" }, agent_info: { llm: "m" } },
        simulations: [simulation("1a", 1, "Yes, please."), simulation("2a", 0, "Hmm, what is the refund method?"), simulation("3a", 0, "Sure thing, do it.", true)],
      }),
    );
    const json = join(dir, "out.json");
    const r = await run(NODE, [STRETTO, "confirm", "--tau2-results", results, "--oracle", "replay", "--oracle-cache", cache, "--second-question", "proposed", "--json", json]);
    assert.equal(r.code, 0, r.stderr);
    const md = r.stdout.toString();
    assert.match(md, /^# Confirmation judged by a System-One model\n/);
    assert.match(md, /whether the agent had proposed this change before the reply/);
    assert.match(md, /\| Judge fails \| Two questions fail \|/);
    assert.match(md, /\| accepted, successful episodes \| 1 \| 0 \| 0 \| 1 \| 0 \| 0 \|/);
    assert.match(md, /\| accepted, failed episodes \| 1 \| 1 \| 1 \| 1 \| 1 \| 0 \|/);
    assert.match(md, /\| refused by the tool \| 1 \| 0 \| 0 \| 0 \| 0 \| 1 \|/);
    assert.match(md, /P\(yes\) = 0\.90, P\(proposed\) = 0\.20/);
    assert.match(r.stderr, /^stretto: 2 questions went unanswered: replay cache miss for request <key>$/m);

    const out = JSON.parse(readFileSync(json, "utf8")) as { audits: Array<Record<string, unknown>>; writes: Array<Record<string, unknown>> };
    assert.deepEqual(
      out.writes.map((w) => [w["task_id"], w["success"], w["refused"], w["word_list"], w["p_yes"], w["p_second"]]),
      [["1", true, false, true, 0.9, 0.2], ["2", false, false, false, 0.1, 0.1], ["3", false, true, true, undefined, undefined]],
    );
    assert.equal(out.writes[0]!["customer"], "Yes, please.");
    assert.match(out.writes[0]!["key"] as string, /^[0-9a-f]{64}$/);
    assert.deepEqual(out.audits[0]!["episodes_judge_fails"], [0, 1]);
  });

  it("needs sessions or results, and checks its choices (exit 2)", async () => {
    const none = await run(NODE, [STRETTO, "confirm"]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /confirm needs --sessions DIR or --tau2-results FILE/);
    const bad = await run(NODE, [STRETTO, "confirm", "--tau2-results", "x.json", "--second-question", "maybe"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--second-question must be one of proposed, described, not maybe/);
  });
});
