/**
 * A progress line on stderr for long reads of big folders: redrawn in place on a terminal
 * (and cleared when done), otherwise written as a line now and then and once at the end.
 */
import type { Io } from "./command.js";

/** Folders with fewer session logs than this finish too soon to need one. */
export const PROGRESS_MIN_LOGS = 100;
const TTY_EVERY_MS = 200;
const LINE_EVERY_MS = 2000;

export class ProgressLine {
  /** Off until a caller decides the work is big enough. */
  enabled = false;
  private last = 0;
  private drawn = false;

  constructor(
    private readonly io: Io,
    private readonly now: () => number = Date.now,
  ) {}

  /** `{what} {done}/{total}`, shown when due and always at the end (done == total). */
  update(what: string, done: number, total: number): void {
    if (!this.enabled) return;
    const t = this.now();
    const end = done === total;
    if (!end && t - this.last < (this.io.stderrIsTty ? TTY_EVERY_MS : LINE_EVERY_MS)) return;
    this.last = t;
    const text = `stretto: ${what} ${done}/${total}`;
    if (this.io.stderrIsTty) {
      this.io.stderr.write(`\r\x1b[K${text}`);
      this.drawn = true;
    } else this.io.stderr.write(`${text}\n`);
  }

  /** Clear a line drawn in place, so what follows starts on a clean line. */
  done(): void {
    if (this.drawn) this.io.stderr.write("\r\x1b[K");
    this.drawn = false;
  }
}
