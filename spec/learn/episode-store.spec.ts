/**
 * The episode store (lib/learn/episode-store.ts) writes an episode as JSON text when that
 * gives it back exactly (json-exact.ts), else by V8's serialization: either way every
 * episode must come back as V8's serialization alone gives it back, in order, through the
 * store's passes, its blocks, and its packed form as another thread reads it. "The same"
 * is deep strict equality (-0 and 0 apart, undefined properties, prototypes) with every
 * object's keys in the same order.
 */
import assert from "node:assert/strict";
import { deserialize, serialize } from "node:v8";
import fc from "fast-check";
import { EpisodeStore, PackedStore } from "../../lib/learn/episode-store.js";
import { isJsonExact } from "../../lib/learn/json-exact.js";
import type { Episode } from "../../lib/trace/index.js";

/** JSON values, and values JSON does not give back (-0, undefined, NaN, holes, other objects). */
const value = fc.anything({
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withSparseArray: true,
  withTypedArray: true,
  withObjectString: true,
});
const jsonish = fc.oneof(fc.jsonValue(), fc.constant(-0), fc.constant(undefined), value);
/** Every object's keys, in order, depth first. */
function keyOrder(v: unknown, into: string[] = []): string[] {
  if (typeof v === "object" && v !== null) {
    into.push(Object.keys(v).join("\u0000"));
    for (const k of Object.keys(v)) keyOrder((v as Record<string, unknown>)[k], into);
  }
  return into;
}

function same(got: unknown[], want: unknown[]): void {
  assert.deepStrictEqual(got, want);
  assert.deepStrictEqual(keyOrder(got), keyOrder(want));
}

const episode = fc.record({ id: fc.string(), reward: fc.double(), events: fc.array(fc.dictionary(fc.string(), jsonish, { maxKeys: 4 }), { maxLength: 4 }) });

/** `[1, <hole>, 2]`. */
function holey(): unknown[] {
  const a: unknown[] = [1];
  a[2] = 2;
  return a;
}

describe("the episode store", () => {
  it("gives back every episode exactly, in order, in passes, by block and packed", () => {
    fc.assert(
      fc.property(fc.array(episode, { maxLength: 150 }), (eps) => {
        const store = new EpisodeStore();
        for (const ep of eps) store.add(ep as unknown as Episode);
        const want = eps.map((ep) => deserialize(serialize(ep)) as unknown);
        for (let pass = 0; pass < 2; pass++) same([...store], want);
        same(
          Array.from({ length: store.blockCount }, (_, i) => [...store.block(i)]).flat(),
          want,
        );
        same([...new PackedStore(store.packed())], want);
      }),
      { numRuns: 60 },
    );
  });

  it("takes as exact JSON only what comes back from its JSON text", () => {
    fc.assert(
      fc.property(jsonish, (v) => {
        if (!isJsonExact(v)) return;
        same([JSON.parse(JSON.stringify(v))], [v]);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses what JSON would change", () => {
    for (const v of [-0, { a: -0 }, { a: undefined }, holey(), NaN, Infinity, Object.create(null), new Date(0), new Map(), [undefined]]) {
      assert.equal(isJsonExact(v), false);
    }
    assert.equal(isJsonExact(JSON.parse('{"__proto__": [1, "\\ud800", {"b": null}], "2": 0, "a": 1.5e300}')), true);
  });
});
