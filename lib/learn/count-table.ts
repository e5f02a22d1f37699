/**
 * One level of a back-off model being counted: context symbols → counts by action, turned
 * into the IR's pair map at the end (in the order the contexts were first counted).
 *
 * A context is looked up by the symbols before a step, one map per symbol, without making
 * the context's array or text: the learner looks up a few contexts at every step of every
 * episode, several times over, and only a context seen for the first time is made.
 */
import { START } from "../flow/decide/index.js";
import { PairMap, type Counts } from "../flow/ir/index.js";
import { contextBefore } from "./context-before.js";

interface Entry {
  context: number[];
  counts: Counts;
}

/** A node of the contexts' tree: the entry of the context ending here, and the longer ones. */
interface Node {
  entry: Entry | undefined;
  next: Map<number, Node> | undefined;
}

export class CountTable {
  private readonly root: Node = { entry: undefined, next: undefined };
  /** Every entry, in the order its context was first counted. */
  private readonly entries: Entry[] = [];

  /** The counts of the `j` symbols before step `t` (START-padded), made empty on first use. */
  at(symbols: readonly number[], t: number, j: number): Counts {
    let node = this.root;
    for (let k = 0; k < j; k++) {
      const symbol = symbolAt(symbols, t - j + k);
      node.next ??= new Map();
      let child = node.next.get(symbol);
      if (child === undefined) node.next.set(symbol, (child = { entry: undefined, next: undefined }));
      node = child;
    }
    if (node.entry === undefined) {
      node.entry = { context: contextBefore(symbols, t, j), counts: { byAction: new Map(), total: 0 } };
      this.entries.push(node.entry);
    }
    return node.entry.counts;
  }

  /** The counts of the `j` symbols before step `t`, if that context was counted. */
  get(symbols: readonly number[], t: number, j: number): Counts | undefined {
    let node: Node | undefined = this.root;
    for (let k = 0; k < j && node !== undefined; k++) node = node.next?.get(symbolAt(symbols, t - j + k));
    return node?.entry?.counts;
  }

  /** Each context with its counts, in the order first counted. */
  contexts(): readonly Entry[] {
    return this.entries;
  }

  toPairMap(): PairMap<number[], Counts> {
    return new PairMap(this.entries.map((e) => [e.context, e.counts] as const));
  }
}

/** The symbol at `i`, or the START padding before the history. */
function symbolAt(symbols: readonly number[], i: number): number {
  return i >= 0 ? symbols[i]! : START;
}

export function addAction(counts: Counts, action: number, w: number): void {
  counts.byAction.set(action, (counts.byAction.get(action) ?? 0) + w);
  counts.total += w;
}
