import assert from "node:assert/strict";
import fc from "fast-check";
import { PairMap } from "../../lib/flow/ir/pair-map.js";

/** The map PairMap must behave as: each key by its JSON text, the last pair written kept in the first one's place. */
class TextMap<K, V> {
  readonly byText = new Map<string | undefined, [K, V]>();
  get(key: K): V | undefined {
    return this.byText.get(JSON.stringify(key))?.[1];
  }
  has(key: K): boolean {
    return this.byText.has(JSON.stringify(key));
  }
  set(key: K, value: V): void {
    this.byText.set(JSON.stringify(key), [key, value]);
  }
  entries(): [K, V][] {
    return [...this.byText.values()].map(([k, v]) => [k, v]);
  }
}

/** Scalars whose JSON texts collide or nearly do: `1` and `"1"`, `0` and `-0`, NaN and null, `true` and `"true"`. */
const scalar = fc.oneof(
  fc.constantFrom<unknown>(0, -0, 1, "1", "0", "", null, true, false, "true", "null", Number.NaN, Number.POSITIVE_INFINITY, -1.5, "a", "b"),
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -3, max: 3 }),
);

/** Keys of every shape the flow writes (strings, numbers, tuples, vectors, nested), a few objects and `undefined` items besides. */
const key: fc.Arbitrary<unknown> = fc.letrec<{ key: unknown }>((tie) => ({
  key: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("key"), { maxLength: 3 }),
    fc.constantFrom<unknown>({ a: 1 }, { a: 1, b: "x" }, { b: "x", a: 1 }, [undefined], [null], [[]], [[], []]),
  ),
})).key;

describe("PairMap", () => {
  it("finds, sets and lists entries as a map keyed by each key's JSON text does (fast-check differential)", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("set" as const), key, value: fc.integer() }),
      fc.record({ kind: fc.constant("get" as const), key }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.integer()), { maxLength: 8 }), fc.array(op, { maxLength: 20 }), (pairs, ops) => {
        const map = new PairMap<unknown, number>(pairs);
        const text = new TextMap<unknown, number>();
        for (const [k, v] of pairs) text.set(k, v);
        for (const o of ops) {
          if (o.kind === "set") {
            map.set(o.key, o.value);
            text.set(o.key, o.value);
          } else {
            assert.equal(map.get(o.key), text.get(o.key));
            assert.equal(map.has(o.key), text.has(o.key));
          }
        }
        assert.equal(map.size, text.byText.size);
        assert.deepEqual([...map.entries()], text.entries());
        assert.deepEqual([...map.keys()], text.entries().map(([k]) => k));
        assert.deepEqual([...map.values()], text.entries().map(([, v]) => v));
        for (const [k, v] of text.entries()) assert.equal(map.get(k), v);
      }),
      { numRuns: 400 },
    );
  });

  it("tells apart keys whose JSON texts differ only by type or nesting, and joins those whose texts agree", () => {
    const map = new PairMap<unknown, string>([
      [1, "number"],
      ["1", "string"],
      [[1, [2]], "inner last"],
      [[[1], 2], "inner first"],
      [["get_order_details", false], "tuple"],
    ]);
    assert.equal(map.get(1), "number");
    assert.equal(map.get("1"), "string");
    assert.equal(map.get([1, [2]]), "inner last");
    assert.equal(map.get([[1], 2]), "inner first");
    assert.equal(map.get(["get_order_details", false]), "tuple");
    assert.equal(map.get(["get_order_details", "false"]), undefined);
    assert.equal(map.get([1, 2]), undefined);
    map.set([-0], "zero");
    assert.equal(map.get([0]), "zero");
    map.set(Number.NaN, "null");
    assert.equal(map.get(null), "null");
    assert.equal(map.size, 7);
  });
});
