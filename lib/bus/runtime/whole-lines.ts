import { Observable, type OperatorFunction } from "../rx.js";
import { frame, type Frame } from "../frame.js";

/** What to do with each whole line, in the same operator (`wholeLines(read)`). */
export interface LineReader {
  /** Called with each whole line in order; the line goes on only if it returns true. */
  each(f: Frame): boolean;
  /** Called once the source completes, after its last line, before completing downstream. */
  ended?(): void;
}

/**
 * Joins the pieces of long lines, so plugins only ever see whole lines. (Passive mode
 * forwards pieces as they come; active mode has to read a line before acting on it.)
 *
 * With a `read`, each whole line is also read and kept or dropped right here: what
 * `tap(each)` and `filter` after it would do, without two more operators for every line
 * of an active session to pass. A `read` that throws errors the stream, as in those.
 */
export function wholeLines(read?: LineReader): OperatorFunction<Frame, Frame> {
  return (source) =>
    new Observable<Frame>((subscriber) => {
      let pieces: Buffer[] = [];
      let lastPiece: Frame | undefined;
      const line = (f: Frame): void => {
        if (read === undefined) {
          subscriber.next(f);
          return;
        }
        let goesOn: boolean;
        try {
          goesOn = read.each(f);
        } catch (e) {
          subscriber.error(e);
          return;
        }
        if (goesOn) subscriber.next(f);
      };
      return source.subscribe({
        next(f) {
          lastPiece = f;
          if (!f.end) {
            pieces.push(f.bytes);
            return;
          }
          if (pieces.length === 0) {
            line(f);
            return;
          }
          pieces.push(f.bytes);
          const joined = Buffer.concat(pieces);
          pieces = [];
          line(frame(f.from, f.tMs, joined, true));
        },
        error: (e) => subscriber.error(e),
        complete() {
          // A source that failed mid-line: what was read is still the line's.
          if (pieces.length > 0 && lastPiece) {
            line(frame(lastPiece.from, lastPiece.tMs, Buffer.concat(pieces), true));
            pieces = [];
            if (subscriber.closed) return;
          }
          try {
            read?.ended?.();
          } catch (e) {
            subscriber.error(e);
            return;
          }
          subscriber.complete();
        },
      });
    });
}
