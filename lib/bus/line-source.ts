import type { Readable } from "node:stream";
import { Observable } from "./rx.js";
import type { Clock } from "./clock.js";
import { frame, readLine, type Frame, type Sender } from "./frame.js";
import { LineSplitter } from "./line-splitter.js";
import type { Pressure } from "./pressure.js";

export interface LineSourceOptions {
  from: Sender;
  /** Who wrote each line, when not always `from`: asked once per line, at its first piece. */
  lineFrom?: (() => Sender) | undefined;
  clock: Clock;
  /** Pauses the readable while a sink downstream is full. */
  pressure?: Pressure;
  /** Longest piece handed out at once; longer lines come in pieces. */
  pieceLimit?: number;
  /** Called once if reading fails; the source then completes. */
  onReadError?: (err: Error) => void;
}

/**
 * A readable byte stream as an Observable of line frames. Completes at end of input (after
 * the last line, with or without its `\n`). Unsubscribing stops listening but leaves the
 * stream itself to its owner.
 */
export function lineSource(readable: Readable, options: LineSourceOptions): Observable<Frame> {
  const { from, clock, pressure, onReadError } = options;
  return new Observable<Frame>((subscriber) => {
    const splitter = new LineSplitter(options.pieceLimit);
    let lineFrom: Sender | undefined;
    const piece = (bytes: Buffer, end: boolean): void => {
      lineFrom ??= options.lineFrom?.() ?? from;
      subscriber.next(frame(lineFrom, clock.now(), bytes, end));
      if (end) lineFrom = undefined;
    };
    const emit = (pieces: ReturnType<LineSplitter["push"]>) => {
      for (const p of pieces) piece(p.bytes, p.end);
    };
    // A line that lies whole in one read, with nothing of it waiting from an earlier read: no view of its own.
    const line = (read: Buffer, start: number, stop: number): void => {
      lineFrom ??= options.lineFrom?.() ?? from;
      subscriber.next(readLine(lineFrom, clock.now(), read, start, stop));
      lineFrom = undefined;
    };
    const onData = (chunk: Buffer) => splitter.eachIn(chunk, line, piece);
    const onEnd = () => {
      emit(splitter.end());
      subscriber.complete();
    };
    const onError = (err: Error) => {
      // What was read before the failure is still a line: hand it on, then end.
      emit(splitter.end());
      onReadError?.(err);
      subscriber.complete();
    };
    // A stream that ended before anyone listened will not say so again: end now, never wait.
    if (readable.readableEnded || readable.destroyed) {
      subscriber.complete();
      return;
    }
    readable.on("data", onData);
    readable.once("end", onEnd);
    readable.once("error", onError);
    const valve = pressure?.paused$.subscribe((paused) => {
      if (paused) readable.pause();
      else readable.resume();
    });
    if (!pressure) readable.resume();
    return () => {
      valve?.unsubscribe();
      readable.off("data", onData);
      readable.off("end", onEnd);
      readable.off("error", onError);
    };
  });
}
