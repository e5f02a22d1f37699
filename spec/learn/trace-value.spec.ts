import assert from "node:assert/strict";
import fc from "fast-check";
import { atPath, findPaths, parseOutput } from "../../lib/flow/bind/json-path.js";
import { SeenOutput, listSource, stringSource, type Source } from "../../lib/learn/bindings/trace-value.js";
import { isObject, type Json } from "../../lib/trace/json.js";

// The count pass parses an output only when its text could show the value looked for. These
// are the sources found with every output parsed up front, as the pass did before.

interface Parsed {
  tool: string;
  value: Json;
}

function plainStringSource(outputs: readonly Parsed[], value: string): Source | undefined {
  for (let i = outputs.length - 1; i >= 0; i--) {
    const [path] = findPaths(outputs[i]!.value, value);
    if (path !== undefined) return [outputs[i]!.tool, path];
  }
  return undefined;
}

function plainListSource(outputs: readonly Parsed[], list: readonly string[]): Source | undefined {
  if (list.length === 0) return undefined;
  for (let i = outputs.length - 1; i >= 0; i--) {
    for (const path of findPaths(outputs[i]!.value, list[0]!)) {
      const values = new Set(atPath(outputs[i]!.value, path).map((f) => f.value));
      if (list.every((v) => values.has(v))) return [outputs[i]!.tool, path];
    }
  }
  return undefined;
}

/** JSON text with each string written plainly or with every code unit escaped (`\uXXXX`), as `escaped` says. */
function render(v: Json, escaped: (s: string) => boolean): string {
  const str = (s: string): string =>
    escaped(s) ? `"${Array.from({ length: s.length }, (_, i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, "0")}`).join("")}"` : JSON.stringify(s);
  if (typeof v === "string") return str(v);
  if (Array.isArray(v)) return `[${v.map((x) => render(x, escaped)).join(",")}]`;
  if (isObject(v)) return `{${Object.keys(v).map((k) => `${str(k)}:${render(v[k]!, escaped)}`).join(",")}}`;
  return JSON.stringify(v);
}

const text = fc.oneof(fc.constantFrom("", "a", "user_1", "#W1a", "a/b", 'say "hi"', "back\\slash", "é", "😀", " pad "), fc.string({ maxLength: 5 }));
const json: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(text, tie("v"), { maxKeys: 4 }).map((o) => JSON.parse(JSON.stringify(o)) as Json),
  ),
})).v;
/** An output's text: JSON (strings plain or escaped), lines of text, or one string. */
const content = fc.oneof(
  fc.tuple(json, fc.func(fc.boolean())).map(([v, escaped]) => render(v, escaped)),
  fc.array(text, { maxLength: 4 }).map((lines) => lines.join("\n")),
  text,
);
const outputs = fc.array(fc.tuple(fc.constantFrom("get_user", "get_order"), content), { maxLength: 5 });

describe("where a passed value came from (the learner's count pass)", () => {
  it("finds the same source as parsing every output first (fast-check differential)", () => {
    fc.assert(
      fc.property(outputs, text, fc.array(text, { maxLength: 3 }), fc.nat(), (outs, target, list, pickAt) => {
        const seen = outs.map(([tool, c]) => new SeenOutput(tool, c));
        const parsed = outs.map(([tool, c]) => ({ tool, value: parseOutput(c) }));
        // A value one of the outputs holds, too: most targets drawn at random are in none.
        const held = parsed.flatMap((p) => findPaths(p.value, target).length > 0 ? [target] : stringsIn(p.value));
        const targets = [target, ...(held.length > 0 ? [held[pickAt % held.length]!] : [])];
        for (const t of targets) assert.deepEqual(stringSource(seen, t), plainStringSource(parsed, t));
        for (const l of [list, targets, held.slice(0, 2)]) assert.deepEqual(listSource(seen, l), plainListSource(parsed, l));
      }),
      { numRuns: 1000 },
    );
  });

  it("finds a value its output writes only with escapes, and parses an output that cannot show it not at all", () => {
    const escaped = new SeenOutput("get_user", '{"user_id":"\\u0075ser_7"}');
    assert.deepEqual(stringSource([escaped], "user_7"), ["get_user", "$.user_id"]);
    const plain = new SeenOutput("get_order", '{"order_id":"#W1a","items":[{"id":"p1"},{"id":"p2"}]}');
    assert.equal(stringSource([plain], "user_7"), undefined);
    assert.equal((plain as unknown as { parsed?: Json }).parsed, undefined, "an output that cannot hold the value is left unparsed");
    assert.deepEqual(listSource([escaped, plain], ["p1", "p2"]), ["get_order", "$.items[*].id"]);
  });
});

function stringsIn(v: Json): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(stringsIn);
  if (isObject(v)) return Object.values(v).flatMap(stringsIn);
  return [];
}
