/**
 * `chooseValue` (lib/flow/bind/choose-value.ts) against the plain rule, written out here
 * without its shortcuts: every output of a source tool, newest first (or by the
 * site's order), every value found at the rule's path a candidate at its first occurrence
 * unless passed already, the first mentioned candidate else the first. Random sessions of
 * orders read, re-read, passed and mentioned, through the live session's views (which keep
 * found lists and mentions between decisions) and through a fresh view of the whole episode.
 */
import assert from "node:assert/strict";
import { atPath, mentionedWithSiblings, SessionView, type Source } from "../../lib/flow/bind/index.js";
import { chooseValue } from "../../lib/flow/bind/choose-value.js";
import type { UsedValues } from "../../lib/flow/bind/session.js";
import { atSite } from "../../lib/flow/bind/sources.js";
import { decisionAfter, LiveDecisions } from "../../lib/flow/decide/index.js";
import type { Bindings } from "../../lib/flow/ir/flow-types.js";
import { logHeader } from "../../lib/record/log-header.js";
import type { Json } from "../../lib/trace/json.js";
import { EpisodeBuilder } from "../../lib/trace/turns.js";
import { bindings } from "./bind-helpers.js";
import { seededRandom } from "../../lib/flow/program/seeded-random.js";

const HEADER = logHeader({ session: "s", startedUnixMs: 0, serverCommand: ["x"] });
const TOOL = "get_order_details";
const ARG = "order_id";
const ONE_SOURCE: Source[] = [["get_user_details", "$.orders[*]"]];
const TWO_SOURCES: Source[] = [
  ["get_user_details", "$.orders[*]"],
  ["list_orders", "$.orders[*].id"],
];
const PLAIN = bindings({ args: [[TOOL, [10, { [ARG]: 10 }]]] });
/** Bindings whose site order (get_user_details read most there) replaces recency. */
const RANKED = bindings({
  args: [[TOOL, [10, { [ARG]: 10 }]]],
  siteSources: [
    { tool: TOOL, arg: ARG, site: "get_user_details", source: ["list_orders", "$.orders[*].id"], values: 4 },
    { tool: TOOL, arg: ARG, site: "get_user_details", source: ["get_user_details", "$.orders[*]"], values: 3 },
  ],
});

/** The plain reading: places in order, every value looked at. */
function reference(b: Bindings, view: SessionView, rules: readonly Source[], used: UsedValues) {
  const outputs = view.outputs;
  const places: [Json, string][] = [];
  const ranked = atSite(b, TOOL, ARG, view.site, rules);
  if (ranked) {
    for (const [[from, path]] of ranked) for (let i = outputs.length - 1; i >= 0; i--) if (outputs[i]!.tool === from) places.push([outputs[i]!.value, path]);
  } else {
    for (let i = outputs.length - 1; i >= 0; i--) for (const [from, path] of rules) if (outputs[i]!.tool === from) places.push([outputs[i]!.value, path]);
  }
  const candidates: { value: string; mentioned: boolean; list: string[] }[] = [];
  const taken = new Set<string>();
  let anyMentioned = false;
  for (const [value, path] of places) {
    const found = atPath(value, path);
    for (const f of found) {
      const mentioned = mentionedWithSiblings(view.customer, f);
      anyMentioned ||= mentioned;
      if (taken.has(f.value) || used.has(f.value)) continue;
      taken.add(f.value);
      candidates.push({ value: f.value, mentioned, list: found.map((x) => x.value) });
    }
  }
  const chosen = candidates.find((c) => c.mentioned) ?? candidates[0];
  return summary(chosen, anyMentioned);
}

/** What a binding reads of a choice: the value, whether mentioned, its list, and (when not mentioned) whether anything was. */
function summary(chosen: { value: string; mentioned: boolean; list: readonly string[] } | undefined, anyMentioned: boolean) {
  if (chosen === undefined) return undefined;
  return { value: chosen.value, mentioned: chosen.mentioned, list: [...chosen.list], ...(chosen.mentioned ? {} : { anyMentioned }) };
}


describe("choosing an argument's value", function () {
  it("chooses as the plain reading does, on random sessions, live and whole", function () {
    let compared = 0;
    let mentionedChoices = 0;
    let bySibling = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const next = seededRandom(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
      const builder = new EpisodeBuilder();
      const live = new LiveDecisions(() => builder.finish(HEADER));
      const orders = ["#W1", "#W2", "#W3", "#W4", "#W5", "#W6"];
      let id = 0;
      for (let step = 0; step < 120; step++) {
        const r = next();
        if (r < 0.15) {
          builder.entry({ t_ms: step, from: "context", message: { role: "user", content: pick([`It is order ${pick(orders)}`, "hello there", "it is my delivered one"]) } });
          continue;
        }
        // A read (the same record again now and then), or the agent passing an order itself.
        const n = ++id;
        const tool = r < 0.55 ? "get_user_details" : r < 0.75 ? "list_orders" : TOOL;
        const shown = orders.filter(() => next() < 0.4);
        const args: Json = tool === TOOL ? { [ARG]: pick(orders) } : { user_id: `u_${Math.floor(next() * 3)}` };
        const output: Json =
          tool === "get_user_details" ? { orders: shown, user_id: (args as { user_id: string }).user_id } : tool === "list_orders" ? { orders: shown.map((o) => ({ id: o, status: pick(["pending", "delivered"]) })) } : { order_id: (args as Record<string, string>)[ARG]!, status: "pending" };
        builder.entry({ t_ms: step * 1000, from: "client", message: { jsonrpc: "2.0", id: n, method: "tools/call", params: { name: tool, arguments: args } } });
        builder.entry({ t_ms: step * 1000 + 1, from: "server", message: { jsonrpc: "2.0", id: n, result: { content: [{ type: "text", text: JSON.stringify(output) }] } } });
        const at = live.after(String(n));
        const whole = decisionAfter(builder.finish(HEADER), String(n));
        for (const [b, rules] of [
          [PLAIN, ONE_SOURCE],
          [PLAIN, TWO_SOURCES],
          [RANKED, TWO_SOURCES],
        ] as const) {
          const want = reference(b, whole.view, rules, whole.view.used(TOOL, ARG));
          for (const view of [at.view, whole.view]) {
            const got = chooseValue(b, TOOL, ARG, view, rules, view.used(TOOL, ARG));
            assert.deepEqual(summary(got.chosen && { ...got.chosen, list: got.chosen.list.map((f) => f.value) }, got.anyMentioned), want, `seed ${seed}, step ${step}`);
            compared++;
            if (got.chosen?.mentioned === true) mentionedChoices++;
            if (got.chosen?.mentioned === true && !view.customer.includes(got.chosen.value.toLowerCase())) bySibling++;
          }
        }
      }
    }
    assert.ok(compared > 10_000, `${compared} choices compared`);
    assert.ok(mentionedChoices > 1000, `${mentionedChoices} of them mentioned`);
    // A record named by another of its values (its status) makes its order mentioned there only.
    assert.ok(bySibling > 50, `${bySibling} chosen by a sibling`);
  });
});
