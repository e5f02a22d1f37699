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
 * How the plugins handled a host line: it went on to the server, or they kept it back
 * (answered it themselves, refused it, or took it over, as a commit does).
 */
export type Handled = "forwarded" | "withheld";

/**
 * Where a host line keeps the bus's callback for saying how it was handled, when someone
 * watches (replay does). Frames made from it (`keepMessages`) carry the same callback, so
 * the part of a batch that goes on reports for the line. Calls after the first are ignored.
 */
export const ON_HANDLED: unique symbol = Symbol("on handled");

/** Where a line the proxy composed says it is a refusal (`toClient(bytes, "refusal")`). */
export const REFUSAL: unique symbol = Symbol("refusal");

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
  /** Filled by `jsonOf` (and the strict check), or where the proxy composed the line, by the value it reads as. */
  [PARSED]?: unknown;
  /** Filled by the bus before a judging plugin sees a host line. */
  [CHECKED]?: LineCheck;
  /** Set by the bus on host lines when the session is watched. */
  [ON_HANDLED]?: ((how: Handled) => void) | undefined;
  /** True on a composed line that refuses something. */
  [REFUSAL]?: boolean;
}

/**
 * A whole line as a source read it: a part of the read that brought it, whose `bytes` (a view
 * of that read) are made when first asked for. On guard mode's path no one asks: the strict
 * check and the parse decode the line from the read, and the sinks merge the lines of a read
 * by where they lie in it (`readOf`), so a line costs no typed array of its own (making one
 * costs as much as the strict check's key comparisons).
 */
class ReadLine implements Frame {
  readonly end = true;
  [PARSED]: unknown = undefined;
  [CHECKED]: LineCheck | undefined = undefined;
  [ON_HANDLED]: ((how: Handled) => void) | undefined = undefined;
  [REFUSAL]: boolean | undefined = undefined;
  private view: Buffer | undefined = undefined;

  constructor(
    readonly from: Sender,
    readonly tMs: number,
    /** The read, and where in it the line begins and ends (its `\n` included). */
    readonly read: Buffer,
    readonly start: number,
    readonly stop: number,
  ) {}

  get bytes(): Buffer {
    return (this.view ??= this.read.subarray(this.start, this.stop));
  }
}

/** A whole line that is bytes `start`…`stop` of `read`, its view made when read (see {@link ReadLine}). */
export function readLine(from: Sender, tMs: number, read: Buffer, start: number, stop: number): Frame {
  return new ReadLine(from, tMs, read, start, stop);
}

/** Where a frame's bytes lie in the read a source made it from, if it was made so (`readLine`). */
export function readOf(f: Frame): { readonly read: Buffer; readonly start: number; readonly stop: number } | undefined {
  return f instanceof ReadLine ? f : undefined;
}

export function frame(from: Sender, tMs: number, bytes: Buffer, end = true): Frame {
  // The slot is there from the start, so every frame has one shape.
  return { from, tMs, bytes, end, [PARSED]: undefined, [CHECKED]: undefined, [ON_HANDLED]: undefined, [REFUSAL]: undefined };
}
