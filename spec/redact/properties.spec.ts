/**
 * Properties of redaction over generated sessions (fast-check): what a learner depends on
 * survives. Each value is replaced exactly as a plain re-count written here says (hashed
 * when fewer than keepShared sessions hold it or a named field does, unless it is one
 * character or none), the replacement is one-to-one on values as they are compared (trimmed,
 * lower-cased, without a leading `#`) across every session, and each log keeps its
 * entries, tool names and JSON shapes. Where every value is spelled one way, the Episode
 * read from the copy (turns, calls, results, customer lines) is the recorded log's; spellings
 * that compare equal (`#W1a`, `w1a`) share one pseudonym, by design, so there the copy can
 * join what exact comparison kept apart (docs/redact.md).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { redactLogs } from "../../lib/redact/index.js";
import { episode, parseLog, type Json, type McpLog } from "../../lib/trace/index.js";

/** Values spelled one way each, and the same values also in differing case and with or without `#`, as typed ids are. */
const ONE_SPELLING = ["user_1", "user_2", "#W1a", "#W2b", "pending", "c1@example.com", "x", "Desk Lamp"];
const SPELLINGS = [...ONE_SPELLING, "User_1", "w1a", "desk lamp"];
const NUMBERS = [7, 42, 1234];
const KEYS = ["order_id", "user_id", "email", "name"];
const TOOLS = ["find", "get", "cancel"];
/** Words the customer types: single words, some of them values. */
const ONE_SPELLING_WORDS = ["please", "cancel", "my", "order", "user_1", "#W1a", "pending", "x", "42"];
const WORDS = [...ONE_SPELLING_WORDS, "w1a", "W2B"];

type Value = string | number;
type Step =
  | { kind: "call"; tool: string; args: [string, Value][]; answer: { json: [string, Value][] } | { text: Value } }
  | { kind: "say"; words: string[] };

/** Sessions whose values come from `strings` (and a few numbers) and whose customers type `words`. */
function sessionsOf(strings: readonly string[], words: readonly string[]): fc.Arbitrary<Step[][]> {
  const value = fc.oneof(fc.constantFrom(...strings), fc.constantFrom(...NUMBERS));
  const pairs = fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), value), { selector: ([k]) => k, maxLength: 3 });
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      kind: fc.constant("call" as const),
      tool: fc.constantFrom(...TOOLS),
      args: pairs,
      answer: fc.oneof(fc.record({ json: pairs }), fc.record({ text: value })),
    }),
    fc.record({ kind: fc.constant("say" as const), words: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 5 }) }),
  );
  return fc.array(fc.array(step, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 });
}
const sessions = sessionsOf(SPELLINGS, WORDS);

const normalize = (v: Value): string => String(v).trim().toLowerCase().replace(/^#+/, "");

function logOf(i: number, steps: Step[]): McpLog {
  const lines: unknown[] = [{ stretto_mcp_log: 2, session: `s${i}`, started_unix_ms: 0, server_command: [], domain: "shop", agent_model: null }];
  let t = 0;
  steps.forEach((s, id) => {
    if (s.kind === "say") {
      lines.push({ t_ms: t++, from: "context", message: { role: "user", content: s.words.join(" ") } });
      return;
    }
    lines.push({ t_ms: t++, from: "client", message: { jsonrpc: "2.0", id, method: "tools/call", params: { name: s.tool, arguments: Object.fromEntries(s.args) } } });
    const text = "json" in s.answer ? JSON.stringify(Object.fromEntries(s.answer.json)) : String(s.answer.text);
    // Results come back after the 500 ms of a turn, so turns follow the value-passing rule alone.
    t += 600;
    lines.push({ t_ms: t++, from: "server", message: { jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } } });
  });
  return parseLog(lines.map((l) => JSON.stringify(l) + "\n").join(""));
}

/** The re-count: every value each session holds, normalized (keys, values, answer lines, typed words). */
function census(all: Step[][], fields: readonly string[]) {
  const sessionsOf = new Map<string, number>();
  const forced = new Set<string>();
  all.forEach((steps) => {
    const seen = new Set<string>();
    for (const s of steps) {
      if (s.kind === "say") for (const w of s.words) seen.add(normalize(w));
      else {
        const answer = "json" in s.answer ? s.answer.json : [];
        for (const [k, v] of [...s.args, ...answer]) {
          seen.add(normalize(k)).add(normalize(v));
          if (fields.includes(k)) {
            forced.add(normalize(v));
            for (const w of String(v).split(" ")) forced.add(normalize(w));
          }
        }
        if ("text" in s.answer) seen.add(normalize(s.answer.text));
      }
    }
    for (const v of seen) sessionsOf.set(v, (sessionsOf.get(v) ?? 0) + 1);
  });
  return { sessionsOf, forced };
}

describe("redact: properties", () => {
  it("replaces each value as the re-count says, one-to-one across sessions, and keeps every Episode's shape", () => {
    fc.assert(
      fc.property(sessions, fc.integer({ min: 1, max: 4 }), fc.subarray(KEYS), (all, keepShared, fields) => {
        const logs = all.map((steps, i) => logOf(i, steps));
        const out = redactLogs(logs, { salt: "salt", keepShared, hashFields: fields });
        const { sessionsOf, forced } = census(all, fields);
        const expected = (v: Value): Value => {
          const k = normalize(v);
          if ([...k].length < 2) return v;
          if ((sessionsOf.get(k) ?? 0) >= keepShared && !forced.has(k)) return v;
          return "h_" + createHash("sha256").update(`salt\0${k}`).digest("hex").slice(0, 12);
        };
        const object = (ps: [string, Value][]) => Object.fromEntries(ps.map(([k, v]) => [expected(k), expected(v)]));

        const hashOf = new Map<string, string>();
        const valueOf = new Map<string, string>();
        const oneToOne = (raw: Value, red: Json | undefined) => {
          if (typeof red !== "string" || !red.startsWith("h_")) return;
          const k = normalize(raw);
          assert.equal(hashOf.get(k) ?? red, red, `${k} has one hash`);
          assert.equal(valueOf.get(red) ?? k, k, `${red} stands for one value`);
          hashOf.set(k, red);
          valueOf.set(red, k);
        };

        all.forEach((steps, i) => {
          const entries = out[i]!.entries;
          assert.equal(entries.length, logs[i]!.entries.length);
          let e = 0;
          for (const s of steps) {
            if (s.kind === "say") {
              const content = (entries[e++]!.message as { content: string }).content;
              assert.equal(content, s.words.map((w) => expected(w)).join(" "));
              s.words.forEach((w, k) => oneToOne(w, content.split(" ")[k]));
              continue;
            }
            const call = entries[e++]!.message as { params: { name: string; arguments: Record<string, Json> } };
            assert.equal(call.params.name, s.tool, "tool names are kept");
            assert.deepEqual(call.params.arguments, object(s.args));
            s.args.forEach(([k, v], n) => {
              const [rk, rv] = Object.entries(call.params.arguments)[n]!;
              oneToOne(k, rk);
              oneToOne(v, rv);
            });
            const text = (entries[e++]!.message as { result: { content: [{ text: string }] } }).result.content[0].text;
            if ("json" in s.answer) assert.equal(text, JSON.stringify(object(s.answer.json)));
            else {
              assert.equal(text, String(expected(s.answer.text)));
              oneToOne(s.answer.text, text);
            }
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it("where each value is spelled one way, the copy's Episodes have the recorded logs' turns, calls, results and customer lines", () => {
    const shape = (log: McpLog): unknown[] =>
      episode(log).events.map((ev): unknown =>
        ev.kind === "assistant"
          ? ["turn", ev.calls.map((c) => [c.id, c.name, Object.keys(c.arguments ?? {}).length])]
          : ev.kind === "tool_result"
            ? ["result", ev.call_id, ev.name, ev.error]
            : [ev.kind],
      );
    fc.assert(
      fc.property(sessionsOf(ONE_SPELLING, ONE_SPELLING_WORDS), fc.integer({ min: 1, max: 4 }), fc.subarray(KEYS), (all, keepShared, fields) => {
        const logs = all.map((steps, i) => logOf(i, steps));
        const out = redactLogs(logs, { salt: "salt", keepShared, hashFields: fields });
        logs.forEach((log, i) => assert.deepEqual(shape(out[i]!), shape(log)));
      }),
      { numRuns: 300 },
    );
  });

  it("a count does not depend on the order the sessions come in", () => {
    fc.assert(
      fc.property(sessions.chain((all) => fc.tuple(fc.constant(all), fc.shuffledSubarray(all.map((_, i) => i), { minLength: all.length, maxLength: all.length }))), ([all, order]) => {
        const logs = all.map((steps, i) => logOf(i, steps));
        const once = redactLogs(logs, { salt: "s", keepShared: 2, hashFields: [] });
        const shuffled = redactLogs(order.map((i) => logs[i]!), { salt: "s", keepShared: 2, hashFields: [] });
        order.forEach((i, k) => assert.deepEqual(shuffled[k], once[i]));
      }),
      { numRuns: 100 },
    );
  });
});
