/**
 * The two steps of the memos the flow keeps on its hot paths (a decision, a pick, a step
 * learned): a nested map made on its first use, and an entry remembered in a memo whose
 * keys come from outside (tool names, arguments, histories), so it is kept to a bound.
 */

/** The most entries a bounded memo keeps; past it the memo starts afresh. */
export const MEMO_LIMIT = 4096;

/** The map under `key`, made empty on first use. */
export function mapIn<K, K2, V>(m: Map<K, Map<K2, V>>, key: K): Map<K2, V> {
  let inner = m.get(key);
  if (inner === undefined) m.set(key, (inner = new Map<K2, V>()));
  return inner;
}

/** The list under `key`, made empty on first use. */
export function listIn<K, T>(m: Map<K, T[]>, key: K): T[] {
  let list = m.get(key);
  if (list === undefined) m.set(key, (list = []));
  return list;
}

/** `value` remembered under `key` (and returned), the memo cleared first when it holds `limit` entries. */
export function remember<K, V>(memo: Map<K, V>, key: K, value: V, limit = MEMO_LIMIT): V {
  if (memo.size >= limit) memo.clear();
  memo.set(key, value);
  return value;
}
