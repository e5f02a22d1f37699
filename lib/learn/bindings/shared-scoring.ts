/**
 * The binder's picks scored by two threads at once. Scoring reads the counted tables and
 * only adds to three tallies (how often a pick agreed with the agent, by mention class; how
 * often a pick naming another value or a described record was used); each is a count
 * summed over episodes, and `pick` never reads them. So the episodes can be shared out a
 * block of the store at a time from one shared counter, each thread keeping its own
 * tallies, and the sums are the same whichever thread scored which block.
 */
import type { Bindings, ToolKind, UsedCount } from "../../flow/ir/index.js";
import type { EpisodeBlocks } from "../episode-store.js";
import { sessionEpisode, type EpisodeReading } from "../session-episode.js";
import { isSuccess } from "../training-set.js";
import { scorePicks } from "./score-picks.js";

/** What scoring adds to the counted bindings. */
export type PickTallies = Pick<Bindings, "agreed" | "namedOther" | "describedRead">;

/** The counted bindings with empty tallies of their own, for one thread's share of the scoring. */
export function withEmptyTallies(counted: Bindings): Bindings {
  return { ...counted, agreed: new Map(), namedOther: new Map(), describedRead: new Map() };
}

/** A block counter two threads share (block `i` is taken by whoever adds 1 and reads `i`). */
export function blockCounter(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/** Takes blocks from `counter` until none is left, scoring their successful episodes into `into`'s tallies. */
export function scoreTakenBlocks(into: Bindings, store: EpisodeBlocks, reading: EpisodeReading, kinds: ReadonlyMap<string, ToolKind>, counter: Int32Array): void {
  for (let i = Atomics.add(counter, 0, 1); i < store.blockCount; i = Atomics.add(counter, 0, 1)) {
    for (const raw of store.block(i)) {
      const ep = sessionEpisode(raw, reading);
      if (isSuccess(ep)) scorePicks(into, ep, kinds);
    }
  }
}

export function talliesOf(b: Bindings): PickTallies {
  return { agreed: b.agreed, namedOther: b.namedOther, describedRead: b.describedRead };
}

/** `b` with `more`'s tallies added to its own. */
export function addTallies(b: Bindings, more: PickTallies): Bindings {
  const used = (m: Map<string, UsedCount>, add: ReadonlyMap<string, UsedCount>): Map<string, UsedCount> => {
    const out = new Map(m);
    for (const [tool, [u, n]] of add) {
      const [u0, n0] = out.get(tool) ?? [0, 0];
      out.set(tool, [u0 + u, n0 + n]);
    }
    return out;
  };
  const agreed = new Map(b.agreed);
  for (const [tool, [none, picked]] of more.agreed) {
    const [n0, p0] = agreed.get(tool) ?? [
      [0, 0],
      [0, 0],
    ];
    agreed.set(tool, [
      [n0[0] + none[0], n0[1] + none[1]],
      [p0[0] + picked[0], p0[1] + picked[1]],
    ]);
  }
  return { ...b, agreed, namedOther: used(b.namedOther, more.namedOther), describedRead: used(b.describedRead, more.describedRead) };
}
