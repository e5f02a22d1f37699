/**
 * The judge as a stage of the guards plugin, through the proxy's own active session (the
 * plugin test kit): a write the guards pass waits for the judge, direct and inside
 * stretto_commit; what the judge doubts is refused in enforce mode with the exact text; each
 * judgment is a confirm log line; a write the guards refuse is not judged. Answers come from a
 * seeded replay cache. (Order under a slow judge is checked end to end, in proxy.spec.ts.)
 */
import assert from "node:assert/strict";
import { ConfirmJudge, type ConfirmLine, type JudgeSettings } from "../../lib/guards/confirm/index.js";
import { replayOracle, type Oracle } from "../../lib/oracle/index.js";
import { commitPlugin } from "../../lib/plugins/commit/commit-plugin.js";
import { guardsPlugin } from "../../lib/plugins/guards/guards-plugin.js";
import { conversationSays, runPlugins, toolCall, toolResultFor, type ServerMessage } from "../../lib/testing/index.js";
import { MODEL, cacheDir, seedYes } from "./seed.js";

const ORDER = { order_id: "#W1", user_id: "ann_1", status: "pending", items: [{ item_id: "i1", product_id: "p1" }], payment_history: [{ payment_method_id: "credit_card_1" }] };

function retail(m: ServerMessage) {
  const name = (m.params as { name?: string } | undefined)?.name;
  if (m.method !== "tools/call") return m.id === undefined ? undefined : toolResultFor(m, "ok");
  if (name === "find_user_id_by_email") return toolResultFor(m, "ann_1");
  if (name === "get_order_details") return toolResultFor(m, JSON.stringify(ORDER));
  if (name === "cancel_pending_order") return toolResultFor(m, JSON.stringify({ ...ORDER, status: "cancelled" }));
  return toolResultFor(m, `no tool ${String(name)}`, true);
}

const PROPOSAL = "Order #W1 is pending. Shall I cancel it as no longer needed?";
const CANCEL = { order_id: "#W1", reason: "no longer needed" };
const LOOKUPS = [toolCall(1, "find_user_id_by_email", { email: "ann@x.com" }), toolCall(2, "get_order_details", { order_id: "#W1" })];
const SAYS_YES = conversationSays({ role: "assistant", content: PROPOSAL }, { role: "user", content: "Yes, please." });
const SAYS_MAYBE = conversationSays({ role: "assistant", content: PROPOSAL }, { role: "user", content: "Hmm, what would the refund be?" });

type ToolAnswer = { id: unknown; result: { content: Array<{ text: string }>; isError: boolean } };

/** The guards with a judge on `oracle`, writing its lines to `lines`. */
function judged(oracle: Oracle, lines: ConfirmLine[], settings: Partial<JudgeSettings> = {}) {
  return guardsPlugin({
    domain: "retail",
    judge: (s) => new ConfirmJudge({ mode: "enforce", oracle, model: MODEL, say: (m) => s.say(m), now: () => 0, ...settings }),
    confirmLog: () => ({ write: (l) => lines.push(l) }),
  });
}

describe("the judge in the guards plugin (plugin test kit)", () => {
  let dir: string;
  before(async () => {
    dir = cacheDir();
    await seedYes(dir, { proposal: PROPOSAL, customer: "Yes, please." }, "cancel_pending_order", CANCEL, 0.92);
    await seedYes(dir, { proposal: PROPOSAL, customer: "Hmm, what would the refund be?" }, "cancel_pending_order", CANCEL, 0.15);
  });

  it("lets a confirmed write through and logs the judgment", async () => {
    const lines: ConfirmLine[] = [];
    const r = await runPlugins({
      plugins: [judged(replayOracle(dir), lines)],
      domain: "retail",
      conversation: [{ role: "user", content: "Cancel #W1, I'm ann@x.com" }],
      host: [...LOOKUPS, SAYS_YES, toolCall(3, "cancel_pending_order", CANCEL)],
      server: retail,
    });
    assert.deepEqual((r.toServer as Array<{ id: number }>).map((m) => m.id), [1, 2, 3]);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.p_yes, 0.92);
    assert.equal(lines[0]!.word_list, true);
    assert.equal(lines[0]!.fails, false);
    assert.deepEqual(r.said, []);
  });

  it("refuses a write it doubts (enforce) with the exact text, and never sends it", async () => {
    const lines: ConfirmLine[] = [];
    const r = await runPlugins({
      plugins: [judged(replayOracle(dir), lines)],
      domain: "retail",
      conversation: [{ role: "user", content: "Cancel #W1, I'm ann@x.com" }],
      host: [...LOOKUPS, SAYS_MAYBE, toolCall(3, "cancel_pending_order", CANCEL)],
      server: retail,
    });
    assert.deepEqual((r.toServer as Array<{ id: number }>).map((m) => m.id), [1, 2]);
    const text =
      "Refused by the policy check, so cancel_pending_order was not run and nothing changed: the customer has not explicitly agreed to this exact change (confirmation judge: p_yes 0.15); describe the change and ask the customer to confirm it first.";
    assert.deepEqual((r.toHost[2] as ToolAnswer).result, { content: [{ type: "text", text }], isError: true });
    assert.deepEqual(r.said, [
      "refused cancel_pending_order: the customer has not explicitly agreed to this exact change (confirmation judge: p_yes 0.15); describe the change and ask the customer to confirm it first",
    ]);
    assert.equal(lines.length, 1, "the lookups are not judged");
    assert.equal(lines[0]!.word_list, false);
    assert.equal(lines[0]!.fails, true);
  });

  it("judges each write inside stretto_commit, and stops the commit at the one it refuses", async () => {
    const lines: ConfirmLine[] = [];
    const commit = (id: number) => toolCall(id, "stretto_commit", { calls: [{ name: "cancel_pending_order", arguments: CANCEL }, { name: "get_order_details", arguments: { order_id: "#W1" } }] });
    const r = await runPlugins({
      plugins: [commitPlugin(), judged(replayOracle(dir), lines)],
      domain: "retail",
      conversation: [{ role: "user", content: "Cancel #W1, I'm ann@x.com" }],
      host: [...LOOKUPS, SAYS_MAYBE, commit(3), SAYS_YES, commit(4)],
      server: retail,
    });
    const refused = (r.toHost[2] as ToolAnswer).result;
    assert.equal(refused.isError, true);
    assert.equal(
      refused.content[0]!.text,
      'cancel_pending_order {"order_id":"#W1","reason":"no longer needed"} was refused by the policy check: the customer has not explicitly agreed to this exact change (confirmation judge: p_yes 0.15); describe the change and ask the customer to confirm it first\n\nget_order_details {"order_id":"#W1"} was not run',
    );
    const made = (r.toHost[3] as ToolAnswer).result;
    assert.equal(made.isError, false);
    assert.match(made.content[0]!.text, /"status":"cancelled"/);
    assert.deepEqual(lines.map((l) => l.p_yes), [0.15, 0.92]);
  });

  it("asks nothing about a write the guards refuse, and logs no judgment for it", async () => {
    const lines: ConfirmLine[] = [];
    const r = await runPlugins({
      plugins: [judged(replayOracle(dir), lines)],
      domain: "retail",
      conversation: [{ role: "user", content: "Cancel #W1" }],
      host: [toolCall(3, "cancel_pending_order", CANCEL)],
      server: retail,
    });
    assert.deepEqual(r.toServer, []);
    assert.match((r.toHost[0] as ToolAnswer).result.content[0]!.text, /\(policy check retail\.authenticated\)/);
    assert.deepEqual(lines, []);
  });
});
