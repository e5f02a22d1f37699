/**
 * Bindings as a message between threads: structured cloning keeps maps, arrays, key order
 * and every number (-0 too) but not a `PairMap`'s class, so each `PairMap` (nested ones in
 * the source counts too) travels as its entries, in order, and is rebuilt from them.
 */
import { PairMap, type Bindings, type SourceCounts } from "../../flow/ir/index.js";

type Pairs<K, V> = [K, V][];
type SourcePairs = Pairs<[string, string], { values: number; found: Pairs<[string, string], number> }>;

export type BindingsMessage = Omit<Bindings, "sources" | "lists" | "constants"> & {
  sources: SourcePairs;
  lists: SourcePairs;
  constants: Pairs<[string, string], unknown>;
};

const sourcePairs = (m: PairMap<[string, string], SourceCounts>): SourcePairs =>
  [...m].map(([k, c]) => [k, { values: c.values, found: [...c.found] }]);

const sourceMap = (p: SourcePairs): PairMap<[string, string], SourceCounts> =>
  new PairMap(p.map(([k, c]) => [k, { values: c.values, found: new PairMap(c.found) }]));

export function bindingsMessage(b: Bindings): BindingsMessage {
  return { ...b, sources: sourcePairs(b.sources), lists: sourcePairs(b.lists), constants: [...b.constants] };
}

export function bindingsOf(m: BindingsMessage): Bindings {
  return { ...m, sources: sourceMap(m.sources), lists: sourceMap(m.lists), constants: new PairMap(m.constants) };
}
