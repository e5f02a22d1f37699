import { concatMap, from, type ObservableInput, type OperatorFunction } from "../rx.js";
import { ON_HANDLED, type Frame } from "../frame.js";

/**
 * An ordered decision per frame: `fn` returns the frames that go on in its place (the same
 * frame to pass it, none to withhold it, a composed one to replace it), now or later.
 * Decisions run one at a time in arrival order, so a decision that takes time (a judge,
 * a lookup) holds back the lines behind it instead of letting them overtake.
 */
export function decide(fn: (frame: Frame) => Frame[] | ObservableInput<Frame[]>): OperatorFunction<Frame, Frame> {
  return concatMap((f: Frame) => {
    const out = fn(f);
    return Array.isArray(out) ? from(withheldUnlessOn(f, out)) : from(out).pipe(concatMap((frames) => from(withheldUnlessOn(f, frames))));
  });
}

/** A host line none of whose frames go on was withheld: say so to whoever watches. */
function withheldUnlessOn(f: Frame, out: Frame[]): Frame[] {
  const onHandled = f[ON_HANDLED];
  if (onHandled !== undefined && !out.some((o) => o[ON_HANDLED] === onHandled)) onHandled("withheld");
  return out;
}
