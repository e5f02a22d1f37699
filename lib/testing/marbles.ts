import { deepStrictEqual } from "node:assert";
import { TestScheduler, type RunHelpers } from "rxjs/testing";
import { frame, type Frame, type Sender } from "../bus/frame.js";
import { map, type Observable } from "../bus/rx.js";
import { bytesOf, seenOf, type ScriptLine, type SeenLine } from "./lines.js";

/** A frame as marble expectations compare it: who sent it and its line (parsed). */
export interface SeenFrame {
  from: Sender;
  line: SeenLine;
}

/**
 * The marble helpers of `TestScheduler.run`, and frame-shaped ones on top. They are plain
 * functions (properties, not methods), so a test may take them apart: `({ host, expectLines }) => …`.
 */
export interface FrameMarbles extends RunHelpers {
  /** Host lines (client frames) on a cold observable: `host("a-b|", { a: request(1, "ping"), b: … })`. */
  host: (marbles: string, lines?: Record<string, ScriptLine>) => Observable<Frame>;
  /** Server lines (server frames) on a cold observable. */
  server: (marbles: string, lines?: Record<string, ScriptLine>) => Observable<Frame>;
  /** Expects the lines of the frames (parsed JSON, else text), whoever sent them. */
  expectLines: (frames$: Observable<Frame>, subscriptionMarbles?: string) => { toBe(marbles: string, lines?: Record<string, SeenLine>): void };
  /** Expects the frames as `{from, line}`: a line a plugin composed is `from: "proxy"`. */
  expectFrames: (frames$: Observable<Frame>, subscriptionMarbles?: string) => { toBe(marbles: string, frames?: Record<string, SeenFrame>): void };
}

/** A frame of one whole line, as the bus hands it to a plugin. */
export function frameOf(from: Sender, l: ScriptLine, tMs = 0): Frame {
  return frame(from, tMs, bytesOf(l));
}

/** The line of each frame, parsed (for `expectObservable`). */
export const linesOf = (frames$: Observable<Frame>): Observable<SeenLine> => frames$.pipe(map((f) => seenOf(f.bytes)));

/** Each frame as `{from, line}`. */
export const framesOf = (frames$: Observable<Frame>): Observable<SeenFrame> => frames$.pipe(map((f) => ({ from: f.from, line: seenOf(f.bytes) })));

/** Adds the frame helpers to a `TestScheduler.run`'s helpers. */
export function frameMarbles(helpers: RunHelpers): FrameMarbles {
  const framesFrom = (from: Sender, lines: Record<string, ScriptLine> | undefined): Record<string, Frame> => {
    const out: Record<string, Frame> = {};
    for (const [k, l] of Object.entries(lines ?? {})) out[k] = frameOf(from, l);
    return out;
  };
  return {
    ...helpers,
    host: (marbles, lines) => helpers.cold(marbles, framesFrom("client", lines)),
    server: (marbles, lines) => helpers.cold(marbles, framesFrom("server", lines)),
    expectLines: (frames$, subscriptionMarbles) => helpers.expectObservable(linesOf(frames$), subscriptionMarbles),
    expectFrames: (frames$, subscriptionMarbles) => helpers.expectObservable(framesOf(frames$), subscriptionMarbles),
  };
}

/**
 * Runs `body` in an RxJS TestScheduler's virtual time, with frame helpers; expectations are
 * compared with `assert.deepStrictEqual`. Decisions that await a real promise (`decide`
 * with an async function, a plugin's own request) leave virtual time: test those with
 * `runPlugins`.
 */
export function testOperator(body: (m: FrameMarbles) => void): void {
  const scheduler = new TestScheduler((actual, expected) => deepStrictEqual(actual, expected));
  scheduler.run((helpers) => body(frameMarbles(helpers)));
}
