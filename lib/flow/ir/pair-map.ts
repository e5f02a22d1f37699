/**
 * A map whose keys are not strings (tuples, vectors, numbers), as the flow IR writes
 * them: a list of `[key, value]` pairs (JSON objects only take string keys). Keys are compared by their
 * JSON text, so `["get_order_details", false]` finds the entry written with that key.
 * A key written twice keeps its last value, as a map read from the pairs would.
 *
 * The served flow looks keys up at every decision, and the learner hundreds of thousands
 * of times, so a key is not written out as text: it is walked down a tree of maps, one
 * level per scalar (see `descend`), which finds the same entry its JSON text would.
 */
export class PairMap<K, V> {
  private readonly root: KeyNode<K, V> = { next: undefined, entry: undefined };
  /** Every entry, in the order its key was first set (a JSON-text map's order). */
  private readonly order: Entry<K, V>[] = [];

  constructor(pairs: Iterable<readonly [K, V]> = []) {
    for (const [key, value] of pairs) this.set(key, value);
  }

  get size(): number {
    return this.order.length;
  }

  get(key: K): V | undefined {
    return descend(this.root, key, false)?.entry?.[1];
  }

  /** Sets `key`'s value; a key already there keeps its place. */
  set(key: K, value: V): this {
    const node = descend(this.root, key, true)!;
    if (node.entry === undefined) this.order.push((node.entry = [key, value]));
    else {
      // The pair written last is the one read back, key included (as `Map.set` of its text keeps).
      node.entry[0] = key;
      node.entry[1] = value;
    }
    return this;
  }

  has(key: K): boolean {
    return descend(this.root, key, false)?.entry !== undefined;
  }

  /** The entries in the order the file listed them (sorted by key, as flow-to-json.ts writes). */
  *entries(): IterableIterator<[K, V]> {
    for (const [key, value] of this.order) yield [key, value];
  }

  *keys(): IterableIterator<K> {
    for (const [key] of this.order) yield key;
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.order) yield value;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }
}

type Entry<K, V> = [K, V];

/** One level of the key tree: the next scalar of a key leads on; a whole key ends at its entry. */
interface KeyNode<K, V> {
  next: Map<unknown, KeyNode<K, V>> | undefined;
  entry: Entry<K, V> | undefined;
}

/** An array of `n` items begins with `lengthMark(n)`: a key no scalar can be. */
const lengthMarks: object[] = [];
function lengthMark(n: number): object {
  let mark = lengthMarks[n];
  if (mark === undefined) lengthMarks[n] = mark = { n };
  return mark;
}

/** What begins a key that is neither a scalar nor an array; its JSON text follows. */
const OTHER = { other: true };

/**
 * The node `key` ends at (made on the way with `make`, else undefined when absent). The
 * key is written as a sequence of map keys that two keys share exactly when their JSON
 * texts are equal: a string as itself and a number as itself (a `Map` tells `1` from
 * `"1"` and holds `-0` and `0` the same, as their texts do), a number JSON writes as
 * `null` (NaN, ±Infinity) as `null`, an array as its length mark then its items (so no
 * key's sequence begins another's), an `undefined` item as `null` (JSON's own), and
 * anything else (an object, whose text depends on its key order) by its JSON text.
 */
function descend<K, V>(node: KeyNode<K, V>, key: unknown, make: boolean, inArray = false): KeyNode<K, V> | undefined {
  if (Array.isArray(key)) {
    let at: KeyNode<K, V> | undefined = step(node, lengthMark(key.length), make);
    for (let i = 0; i < key.length && at !== undefined; i++) at = descend(at, key[i], make, true);
    return at;
  }
  switch (typeof key) {
    case "string":
    case "boolean":
      return step(node, key, make);
    case "number":
      return step(node, Number.isFinite(key) ? key : null, make);
    case "undefined":
      // JSON writes an array's `undefined` as `null`; a key that is `undefined` has no text at all.
      return step(node, inArray ? null : undefined, make);
    default: {
      if (key === null) return step(node, null, make);
      const other = step(node, OTHER, make);
      return other === undefined ? undefined : step(other, JSON.stringify(key), make);
    }
  }
}

function step<K, V>(node: KeyNode<K, V>, part: unknown, make: boolean): KeyNode<K, V> | undefined {
  let next = node.next?.get(part);
  if (next === undefined && make) (node.next ??= new Map()).set(part, (next = { next: undefined, entry: undefined }));
  return next;
}
