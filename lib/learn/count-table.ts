/**
 * One level of a back-off model being counted: context symbols → counts by action. Keyed
 * by the context's text while counting, turned into the IR's pair map at the end.
 */
import { PairMap, type Counts } from "../flow/ir/index.js";

export class CountTable {
  private readonly byContext = new Map<string, { context: number[]; counts: Counts }>();

  /** The counts of `context`, made empty on first use. */
  at(context: number[]): Counts {
    const key = context.join(",");
    let entry = this.byContext.get(key);
    if (entry === undefined) this.byContext.set(key, (entry = { context, counts: { byAction: new Map(), total: 0 } }));
    return entry.counts;
  }

  /** The counts of `context`, if it was seen. */
  get(context: readonly number[]): Counts | undefined {
    return this.byContext.get(context.join(","))?.counts;
  }

  toPairMap(): PairMap<number[], Counts> {
    return new PairMap([...this.byContext.values()].map((e) => [e.context, e.counts] as const));
  }
}

export function addAction(counts: Counts, action: number, w: number): void {
  counts.byAction.set(action, (counts.byAction.get(action) ?? 0) + w);
  counts.total += w;
}
