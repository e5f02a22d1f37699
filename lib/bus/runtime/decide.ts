import { concatMap, from, type ObservableInput, type OperatorFunction } from "../rx.js";
import type { Frame } from "../frame.js";

/**
 * An ordered decision per frame: `fn` returns the frames that go on in its place (the same
 * frame to pass it, none to withhold it, a composed one to replace it), now or later.
 * Decisions run one at a time in arrival order, so a decision that takes time (a judge,
 * a lookup) holds back the lines behind it instead of letting them overtake.
 */
export function decide(fn: (frame: Frame) => Frame[] | ObservableInput<Frame[]>): OperatorFunction<Frame, Frame> {
  return concatMap((f: Frame) => {
    const out = fn(f);
    return Array.isArray(out) ? from(out) : from(out).pipe(concatMap((frames) => from(frames)));
  });
}
