import type { Frame } from "../index.js";
import { Observable, type OperatorFunction } from "../rx.js";

/**
 * Each frame goes on at once (`fn` returns it), or is held until `fn`'s promise settles
 * (with the frame to send, or undefined for none); a held frame does not hold back the
 * frames behind it. `mergeMap` with the same order, without an inner subscription for
 * each of the many frames that simply pass.
 */
export function passOrHold(fn: (f: Frame) => Frame | Promise<Frame | undefined>): OperatorFunction<Frame, Frame> {
  return (source) =>
    new Observable<Frame>((subscriber) => {
      let held = 0;
      let sourceDone = false;
      const upstream = source.subscribe({
        next(f) {
          let out: Frame | Promise<Frame | undefined>;
          try {
            out = fn(f);
          } catch (e) {
            subscriber.error(e);
            return;
          }
          if (!(out instanceof Promise)) {
            subscriber.next(out);
            return;
          }
          held++;
          out.then(
            (frame) => {
              held--;
              if (frame !== undefined) subscriber.next(frame);
              if (held === 0 && sourceDone) subscriber.complete();
            },
            (e: unknown) => subscriber.error(e),
          );
        },
        error: (e: unknown) => subscriber.error(e),
        complete() {
          sourceDone = true;
          if (held === 0) subscriber.complete();
        },
      });
      return () => upstream.unsubscribe();
    });
}
