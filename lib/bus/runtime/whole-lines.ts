import { Observable, type OperatorFunction } from "../rx.js";
import { frame, type Frame } from "../frame.js";

/**
 * Joins the pieces of long lines, so plugins only ever see whole lines. (Passive mode
 * forwards pieces as they come; active mode has to read a line before acting on it.)
 */
export function wholeLines(): OperatorFunction<Frame, Frame> {
  return (source) =>
    new Observable<Frame>((subscriber) => {
      let pieces: Buffer[] = [];
      let lastPiece: Frame | undefined;
      return source.subscribe({
        next(f) {
          lastPiece = f;
          if (!f.end) {
            pieces.push(f.bytes);
            return;
          }
          if (pieces.length === 0) {
            subscriber.next(f);
            return;
          }
          pieces.push(f.bytes);
          const joined = Buffer.concat(pieces);
          pieces = [];
          subscriber.next(frame(f.from, f.tMs, joined, true));
        },
        error: (e) => subscriber.error(e),
        complete() {
          // A source that failed mid-line: what was read is still the line's.
          if (pieces.length > 0 && lastPiece) {
            subscriber.next(frame(lastPiece.from, lastPiece.tMs, Buffer.concat(pieces), true));
            pieces = [];
          }
          subscriber.complete();
        },
      });
    });
}
