import type { LineCheck } from "../protocol/line-check.js";

/** Who put a line on the bus. `proxy` and `context` come with active mode. */
export type Sender = "client" | "server" | "proxy" | "context";

/**
 * Where a frame keeps its parsed JSON value once a plugin asked for it (`jsonOf`): a cache
 * on the frame itself, so no side table has to hold every frame of a session.
 */
export const PARSED: unique symbol = Symbol("parsed JSON");

/** Where a host line keeps the verdict of the strict check (`checkLine`) in guard mode. */
export const CHECKED: unique symbol = Symbol("line check");

/**
 * One line as read, or one piece of a line too long to hold whole.
 *
 * `bytes` are exactly what was read: a whole line ends with its `\n` (unless it is the last
 * line of a stream that ended without one). A line longer than the source's piece limit
 * arrives as several frames sharing its sender; all but the last have `end: false`, so a
 * passive proxy forwards a 64 MiB line without ever holding it whole.
 */
export interface Frame {
  readonly from: Sender;
  /** Milliseconds since the session started, when this (piece of a) line was read. */
  readonly tMs: number;
  readonly bytes: Buffer;
  /** False for a leading piece of a long line; the line goes on in the next frame. */
  readonly end: boolean;
  /** Filled by `jsonOf`; nothing else writes it. */
  [PARSED]?: unknown;
  /** Filled by the bus before a judging plugin sees a host line. */
  [CHECKED]?: LineCheck;
}

export function frame(from: Sender, tMs: number, bytes: Buffer, end = true): Frame {
  // The slot is there from the start, so every frame has one shape.
  return { from, tMs, bytes, end, [PARSED]: undefined, [CHECKED]: undefined };
}
