/**
 * Progress on stderr for the commands that read many sessions: a live bar on a terminal
 * (drawn by cli-progress, cleared when done), otherwise a plain line now and then and once
 * at the end, so a log of the run says how far it came. `--quiet` shows nothing.
 *
 * A command over a folder gets its progress from `planWithProgress` (folder-report.ts) and
 * reports each step:
 *
 *     const { folder, progress } = await planWithProgress(io, dir, strict, quiet(args));
 *     for await (const ep of folderEpisodes(folder, (done, total) => progress.update("learning", done, total))) …
 *     progress.done();
 *
 * Work that is not a folder's sessions makes its own: `new ProgressLine(io, { quiet })`, then
 * `start(total)` to decide whether it is big enough to show.
 */
import { SingleBar } from "cli-progress";
import type { Io, ParsedArgs } from "./command.js";

/** Folders with fewer session logs than this finish too soon to need one. */
export const PROGRESS_MIN_LOGS = 100;
/** A line every few seconds off a terminal: enough to see the work move, few enough to read. */
const LINE_EVERY_MS = 2000;
/** Redraws a second on a terminal. */
const BAR_FPS = 5;

/** The flag every command that reads many sessions takes. */
export const QUIET_FLAG = "--quiet";
/** Its line in a command's help. */
export const QUIET_HELP = "  --quiet   Show no progress on stderr.";

/** Whether the command line asked for quiet. */
export function quiet(args: ParsedArgs): boolean {
  return args.flags.has(QUIET_FLAG);
}

export interface ProgressOptions {
  /** Show nothing, whatever the size of the work. */
  quiet?: boolean;
  /** The clock of the plain-line mode (tests pass their own). */
  now?: () => number;
}

export class ProgressLine {
  /** Off until a caller decides the work is big enough (see {@link start}). */
  enabled = false;
  private readonly quiet: boolean;
  private readonly now: () => number;
  private last = 0;
  /** The bar on a terminal, and what it counts; undefined when none is drawn. */
  private bar: { what: string; bar: SingleBar } | undefined;

  constructor(
    private readonly io: Io,
    options: ProgressOptions = {},
  ) {
    this.quiet = options.quiet === true;
    this.now = options.now ?? Date.now;
  }

  /** Shows progress from now on when `total` items are enough to need it (and not quiet). */
  start(total: number, min = PROGRESS_MIN_LOGS): void {
    this.enabled = !this.quiet && total >= min;
  }

  /** `{what} {done}/{total}`: the bar moved, or a line when one is due and always at the end (done == total). */
  update(what: string, done: number, total: number): void {
    if (!this.enabled || this.quiet) return;
    if (this.io.stderrIsTty) return this.draw(what, done, total);
    const t = this.now();
    if (done !== total && t - this.last < LINE_EVERY_MS) return;
    this.last = t;
    this.io.stderr.write(`stretto: ${what} ${done}/${total}\n`);
  }

  /** Clears a bar drawn in place, so what follows starts on a clean line. */
  done(): void {
    this.bar?.bar.stop();
    this.bar = undefined;
  }

  private draw(what: string, done: number, total: number): void {
    if (this.bar !== undefined && this.bar.what !== what) this.done();
    if (this.bar === undefined) {
      const bar = new SingleBar({
        stream: this.io.stderr,
        format: `stretto: ${what} [{bar}] {value}/{total}`,
        barsize: 30,
        fps: BAR_FPS,
        clearOnComplete: true,
        hideCursor: false,
        linewrap: false,
      });
      bar.start(total, done);
      this.bar = { what, bar };
      return;
    }
    this.bar.bar.setTotal(total);
    this.bar.bar.update(done);
  }
}
