import { Observable, from, type ObservableInput, type OperatorFunction, type Subscription } from "../rx.js";
import { ON_HANDLED, type Frame } from "../frame.js";

/** What a decision returns: the frames that go on in its place, now (an array) or later. */
export type Decision = Frame[] | ObservableInput<Frame[]>;

/**
 * An ordered decision per frame: `fn` returns the frames that go on in its place (the same
 * frame to pass it, none to withhold it, a composed one to replace it), now or later.
 * Decisions run one at a time in arrival order, so a decision that takes time (a judge,
 * a lookup) holds back the lines behind it instead of letting them overtake.
 *
 * (`concatMap` with the same order; a decision made at once costs no inner subscription,
 * since every line of an active session passes one.)
 */
export function decide(fn: (frame: Frame) => Decision): OperatorFunction<Frame, Frame> {
  return (source) =>
    new Observable<Frame>((subscriber) => {
      /** Frames that arrived while a decision was being made or emitted. */
      const waiting: Frame[] = [];
      let active = false;
      let sourceDone = false;
      let inner: Subscription | undefined;

      const emit = (f: Frame, out: Frame[]) => {
        for (const o of withheldUnlessOn(f, out)) subscriber.next(o);
      };
      /** Decides `f`; `active` stays true only while a decision that takes time is out. */
      const start = (f: Frame): void => {
        let out: Decision;
        try {
          out = fn(f);
        } catch (e) {
          subscriber.error(e);
          return;
        }
        if (Array.isArray(out)) {
          emit(f, out);
          active = false;
          return;
        }
        let sync = true;
        let doneSync = false;
        const sub = from(out).subscribe({
          next: (frames) => emit(f, frames),
          error: (e: unknown) => subscriber.error(e),
          complete: () => {
            inner = undefined;
            if (sync) doneSync = true;
            else {
              active = false;
              pump();
            }
          },
        });
        sync = false;
        if (doneSync) active = false;
        else inner = sub;
      };
      const pump = (): void => {
        while (!active && waiting.length > 0 && !subscriber.closed) {
          active = true;
          start(waiting.shift()!);
        }
        if (!active && sourceDone && waiting.length === 0) subscriber.complete();
      };
      const upstream = source.subscribe({
        next(f) {
          if (active || waiting.length > 0) {
            waiting.push(f);
            return;
          }
          active = true;
          start(f);
          if (!active && waiting.length > 0) pump();
        },
        error: (e: unknown) => subscriber.error(e),
        complete() {
          sourceDone = true;
          if (!active) pump();
        },
      });
      return () => {
        upstream.unsubscribe();
        inner?.unsubscribe();
      };
    });
}

/** A host line none of whose frames go on was withheld: say so to whoever watches. */
function withheldUnlessOn(f: Frame, out: Frame[]): Frame[] {
  const onHandled = f[ON_HANDLED];
  if (onHandled !== undefined && !out.some((o) => o[ON_HANDLED] === onHandled)) onHandled("withheld");
  return out;
}
