import assert from "node:assert/strict";
import fc from "fast-check";
import { findPaths, firstPath, lowerScalars } from "../../lib/flow/bind/json-path.js";
import { keyish, mentionedWithSiblings, MIN_MENTION } from "../../lib/flow/bind/mentions.js";
import { isObject, sortedKeys, type Json } from "../../lib/trace/json.js";

// The binder's walks were rewritten to allocate less (paths written only where found, no
// per-call arrays or closures); these are the plain versions they must agree with.

function plainFindPaths(v: Json, target: string, path = "$", out: string[] = []): string[] {
  if (typeof v === "string") {
    if (v === target) out.push(path);
  } else if (Array.isArray(v)) {
    for (const item of v) plainFindPaths(item, target, `${path}[*]`, out);
  } else if (isObject(v)) {
    for (const k of sortedKeys(v)) plainFindPaths(v[k]!, target, `${path}.${k}`, out);
  }
  return out;
}

function plainLowerScalars(v: Json, out: Set<string> = new Set()): Set<string> {
  if (typeof v === "string") out.add(v.trim().toLowerCase());
  else if (typeof v === "number") out.add(JSON.stringify(v));
  else if (Array.isArray(v)) for (const item of v) plainLowerScalars(item, out);
  else if (isObject(v)) for (const k of Object.keys(v)) plainLowerScalars(v[k]!, out);
  return out;
}

const chars = (s: string): number => [...s].length;
function plainMentions(customer: string, value: string): boolean {
  const v = value.toLowerCase().trim();
  const bare = v.replace(/^#+/, "");
  return bare !== "" && (customer.includes(v) || customer.includes(bare));
}

/** Strings that repeat, with `#`s, digits, spaces, upper case and surrogate pairs (one character, two code units). */
const text = fc.oneof(fc.constantFrom("", "#", "##a1", " A1b ", "a1b", "😀😀", "😀1", "😀😀1", "😀😀😀😀", "\ud83d", "x", "12", "1234", "-0"), fc.string({ maxLength: 6 }), fc.string({ unit: "grapheme", maxLength: 4 }));
/** JSON as a parsed output holds it (key order as sent, `__proto__` a plain key). */
const json: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    text,
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(-0)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(text, tie("v"), { maxKeys: 4 }).map((o) => JSON.parse(JSON.stringify(o)) as Json),
  ),
})).v;

describe("the binder's walks", () => {
  it("findPaths, firstPath and lowerScalars give what the plain walks give (fast-check differential)", () => {
    fc.assert(
      fc.property(json, text, (v, target) => {
        assert.deepEqual(findPaths(v, target), plainFindPaths(v, target));
        assert.equal(firstPath(v, target), plainFindPaths(v, target)[0]);
        assert.deepEqual([...lowerScalars(v)], [...plainLowerScalars(v)]);
      }),
      { numRuns: 500 },
    );
  });

  it("mentions with siblings and keyish count characters as code points, as before (fast-check differential)", () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 3 }).map((t) => t.join(" ").toLowerCase()), text, fc.array(text, { maxLength: 3 }), (customer, value, siblings) => {
        const plain = plainMentions(customer, value) || siblings.some((s) => chars(s) >= MIN_MENTION && plainMentions(customer, s));
        assert.equal(mentionedWithSiblings(customer, { value, siblings }), plain);
        for (const s of [value, ...siblings]) assert.equal(keyish(s), chars(s) >= MIN_MENTION && /[0-9]/.test(s));
      }),
      { numRuns: 500 },
    );
  });

  it("a sibling of two characters in four code units is too short to match; a third character with a digit makes a key", () => {
    assert.equal(mentionedWithSiblings("it was 😀😀 here", { value: "nope", siblings: ["😀😀"] }), false);
    assert.equal(mentionedWithSiblings("it was 😀😀😀😀 here", { value: "nope", siblings: ["😀😀😀😀"] }), true);
    assert.equal(keyish("😀😀1"), false);
    assert.equal(keyish("😀😀12"), true);
  });
});
