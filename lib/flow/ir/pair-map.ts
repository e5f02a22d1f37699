/**
 * A map whose keys are not strings (tuples, vectors, numbers), as the flow IR writes
 * them: a list of `[key, value]` pairs (JSON objects only take string keys). Keys are compared by their
 * JSON text, so `["get_order_details", false]` finds the entry written with that key.
 * A key written twice keeps its last value, as a map read from the pairs would.
 */
export class PairMap<K, V> {
  private readonly byText = new Map<string, [K, V]>();

  constructor(pairs: Iterable<readonly [K, V]> = []) {
    for (const [key, value] of pairs) this.byText.set(JSON.stringify(key), [key, value]);
  }

  get size(): number {
    return this.byText.size;
  }

  get(key: K): V | undefined {
    return this.byText.get(JSON.stringify(key))?.[1];
  }

  /** Sets `key`'s value; a key already there keeps its place. */
  set(key: K, value: V): this {
    this.byText.set(JSON.stringify(key), [key, value]);
    return this;
  }

  has(key: K): boolean {
    return this.byText.has(JSON.stringify(key));
  }

  /** The entries in the order the file listed them (sorted by key, as flow-to-json.ts writes). */
  *entries(): IterableIterator<[K, V]> {
    for (const [key, value] of this.byText.values()) yield [key, value];
  }

  *keys(): IterableIterator<K> {
    for (const [key] of this.byText.values()) yield key;
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.byText.values()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }
}
