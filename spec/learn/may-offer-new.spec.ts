import assert from "node:assert/strict";
import fc from "fast-check";
import { FieldTableBuilder } from "../../lib/learn/field-table.js";
import { mayOfferNew } from "../../lib/learn/may-offer-new.js";
import { isObject, type Json } from "../../lib/trace/json.js";
import { OK, type Step } from "../../lib/flow/decide/index.js";
import type { CodeField } from "../../lib/flow/ir/index.js";

// The field table's first pass skips an output whose skimmed fields are all known. These are
// the fields as the pass read them before: every output parsed.

function parsedFields(text: string): Map<string, CodeField> {
  const into = new Map<string, CodeField>();
  let v: Json | undefined;
  try {
    v = JSON.parse(text) as Json;
  } catch {
    return into;
  }
  if (!isObject(v)) return into;
  const visit = (path: string, x: Json, depth: number): void => {
    if (Array.isArray(x)) into.set(`L${path}`, { kind: "len", path });
    else if (isObject(x)) {
      if (depth === 0) for (const k of Object.keys(x)) visit(`${path}.${k}`, x[k]!, 1);
    } else into.set(`S${path}`, { kind: "scalar", path });
  };
  for (const k of Object.keys(v)) visit(`$.${k}`, v[k]!, 0);
  return into;
}

/** A JSON value written by hand: objects as lists of members, so a key can repeat. */
type Written = { s: string } | { n: number } | { lit: "true" | "false" | "null" } | { arr: Written[] } | { obj: [string, Written][] };

const key = fc.oneof(fc.constantFrom("a", "b", "status", "items", "__proto__", "", "x.y", 'q"t', "back\\slash", "é", "1", "😀"), fc.string({ maxLength: 3 }));
const written: fc.Arbitrary<Written> = fc.letrec<{ v: Written }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    key.map((s) => ({ s })),
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((n) => ({ n })),
    fc.constantFrom("true", "false", "null").map((lit): Written => ({ lit })),
    fc.array(tie("v"), { maxLength: 3 }).map((arr) => ({ arr })),
    fc.array(fc.tuple(key, tie("v")), { maxLength: 4 }).map((obj) => ({ obj })),
  ),
})).v;
const topObject = fc.array(fc.tuple(key, written), { maxLength: 5 }).map((obj): Written => ({ obj }));

interface Style {
  /** Whitespace put at each place JSON allows it. */
  space: (at: number) => string;
  /** Whether a string is written with every code unit escaped. */
  escaped: (s: string) => boolean;
}

function render(v: Written, st: Style, at = { n: 0 }): string {
  const ws = (): string => st.space(at.n++);
  const str = (s: string): string =>
    st.escaped(s) ? `"${Array.from({ length: s.length }, (_, i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, "0")}`).join("")}"` : JSON.stringify(s);
  if ("s" in v) return str(v.s);
  if ("n" in v) return JSON.stringify(v.n);
  if ("lit" in v) return v.lit;
  if ("arr" in v) return `[${ws()}${v.arr.map((x) => `${render(x, st, at)}${ws()}`).join(`,${ws()}`)}]`;
  return `{${ws()}${v.obj.map(([k, x]) => `${str(k)}${ws()}:${ws()}${render(x, st, at)}${ws()}`).join(`,${ws()}`)}}`;
}

const style = (escapes: boolean): fc.Arbitrary<Style> =>
  fc.record({
    space: fc.func(fc.constantFrom("", "", "", " ", "\n", "\t", "\r\n ")),
    escaped: fc.func(escapes ? fc.boolean() : fc.constant(false)),
  });

/** Texts of every kind: JSON objects (keys repeated or escaped, any spacing), other JSON, broken JSON, plain text. */
const anyText = fc.oneof(
  fc.tuple(topObject, style(true)).map(([v, st]) => render(v, st)),
  fc.tuple(written, style(true)).map(([v, st]) => render(v, st)),
  fc.tuple(topObject, style(true), fc.nat(), fc.constantFrom("", "}", "]", ",", '"', "x", "\\", " {")).map(([v, st, cut, add]) => {
    const t = render(v, st);
    const at = cut % (t.length + 1);
    return t.slice(0, at) + add + t.slice(at);
  }),
  fc.string({ maxLength: 12 }),
  fc.constantFrom("user_1", "{", "{}", " {} ", "{} x", '{"a":}', '{"a":1,}', '{"a" 1}', "\u00a0{}", '{"a":[1,{"b":2}],"a":3}'),
);

/** Whether no object repeats a key and every key is written without an escape. */
function plainKeys(v: Written): boolean {
  if ("arr" in v) return v.arr.every(plainKeys);
  if (!("obj" in v)) return true;
  const keys = v.obj.map(([k]) => k);
  return new Set(keys).size === keys.length && keys.every((k) => JSON.stringify(k) === `"${k}"`) && v.obj.every(([, x]) => plainKeys(x));
}

/** Some of `offered`'s keys and some others, as fields already known. */
function knownOf(offered: Map<string, CodeField>, keep: (k: string) => boolean, extra: string[]): Map<string, null> {
  return new Map([...[...offered.keys()].filter(keep), ...extra].map((k) => [k, null]));
}

const extraKeys = fc.array(fc.constantFrom("S$.a", "L$.a", "S$.a.b", "L$.b", "S$.status", "S$.items", "L$.items"), { maxLength: 3 });

describe("skimming an output for fields not yet offered (the field table's first pass)", () => {
  it("says nothing is new only when parsing would offer nothing new, whatever the text (fast-check)", () => {
    fc.assert(
      fc.property(anyText, fc.func(fc.boolean()), extraKeys, (text, keep, extra) => {
        const offered = parsedFields(text);
        const known = knownOf(offered, keep, extra);
        if (!mayOfferNew(text, known)) for (const k of offered.keys()) assert.ok(known.has(k), `${k} of ${JSON.stringify(text)} is new`);
      }),
      { numRuns: 3000 },
    );
  });

  it("says something may be new exactly when parsing offers it, for plain objects (fast-check)", () => {
    const plain = fc.tuple(topObject, style(false)).filter(([v]) => plainKeys(v));
    fc.assert(
      fc.property(plain, fc.func(fc.boolean()), extraKeys, ([v, st], keep, extra) => {
        const text = render(v, st);
        const offered = parsedFields(text);
        const known = knownOf(offered, keep, extra);
        assert.equal(mayOfferNew(text, known), [...offered.keys()].some((k) => !known.has(k)), text);
      }),
      { numRuns: 3000 },
    );
  });

  it("offers the same fields as parsing every output (fast-check differential)", () => {
    const tools = fc.array(fc.tuple(fc.constantFrom("get_user", "get_order"), anyText), { maxLength: 12 });
    fc.assert(
      fc.property(tools, (outs) => {
        const b = new FieldTableBuilder();
        b.offer(outs.map(([tool, output]): Step => ({ kind: "call", tool, outcome: OK, output })));
        const want = new Map<string, Map<string, CodeField>>();
        for (const [tool, output] of outs) {
          const into = want.get(tool) ?? new Map<string, CodeField>();
          want.set(tool, into);
          for (const [k, f] of parsedFields(output)) into.set(k, f);
        }
        const sorted = (m: Map<string, Map<string, CodeField>>) => [...m].map(([t, f]) => [t, [...f].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))] as const).sort(([a], [b]) => (a < b ? -1 : 1));
        assert.deepEqual(sorted(new Map(b.offered().map(([t, f]) => [t, new Map(f)]))), sorted(want));
      }),
      { numRuns: 1000 },
    );
  });

  it("reads the shop's outputs plainly", () => {
    const order = '{"address":{"city":"Philadelphia","zip":"19036"},"fulfillments":[],"items":[{"item_id":"480550","price":59.62}],"order_id":"#W1a","status":"pending"}';
    const all = parsedFields(order);
    assert.equal(mayOfferNew(order, all), false);
    for (const k of all.keys()) {
      const less = new Map(all);
      less.delete(k);
      assert.equal(mayOfferNew(order, less), true, k);
    }
    assert.equal(mayOfferNew("user_1", new Map()), false);
    // A key written with an escape is not read as its text: known as written, it is still new.
    assert.equal(mayOfferNew('{"a\\u0062":1}', new Map([["S$.a\\u0062", null]])), true);
  });
});
