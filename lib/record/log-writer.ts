import { closeSync, createWriteStream, mkdirSync, openSync, unlinkSync, writeSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import { ProxyError } from "../util/proxy-error.js";

export interface LogWriterOptions {
  /** Told once when recording stops early (a full disk, a lost file). */
  onStopped?: (message: string) => void;
}

/**
 * A session log on disk. Opening is synchronous (the header is on disk before the server
 * starts, or nothing is left behind); entries after that go through a write stream, one
 * write per line, so forwarding never waits for the disk and a crash loses at most the
 * lines still queued. A write failure stops recording, never the session.
 */
export class LogWriter {
  private stream: WriteStream | undefined;
  private stopped = false;

  private constructor(
    readonly path: string,
    fd: number,
    private readonly options: LogWriterOptions,
  ) {
    this.stream = createWriteStream("", { fd, autoClose: true });
    this.stream.on("error", (err) => this.stop(err));
  }

  /** Creates `<dir>/<session>.jsonl` (never overwriting) and writes the header line. */
  static create(dir: string, session: string, header: object, options: LogWriterOptions = {}): LogWriter {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw new ProxyError(`creating ${dir}`, err);
    }
    const path = join(dir, `${session}.jsonl`);
    let fd: number;
    try {
      fd = openSync(path, "wx");
    } catch (err) {
      throw new ProxyError(`creating ${path}`, err);
    }
    try {
      writeSync(fd, `${JSON.stringify(header)}\n`);
    } catch (err) {
      closeSync(fd);
      unlinkSync(path);
      throw new ProxyError(`writing ${path}`, err);
    }
    return new LogWriter(path, fd, options);
  }

  /** Queues one entry line; dropped once recording has stopped or finished. */
  write(line: Buffer): void {
    if (this.stopped || !this.stream) return;
    this.stream.write(line);
  }

  /** Writes out everything queued, then closes the file. */
  finish(): Promise<void> {
    const stream = this.stream;
    this.stream = undefined;
    if (!stream || stream.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      stream.once("close", () => resolve());
      stream.end();
    });
  }

  /** Removes the log: the proxy failed before the session began (exit 125). */
  discard(): void {
    const stream = this.stream;
    this.stream = undefined;
    this.stopped = true;
    stream?.destroy();
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to leave behind either way.
    }
  }

  private stop(err: Error): void {
    if (this.stopped) return;
    this.stopped = true;
    this.options.onStopped?.(`recording stopped: writing ${this.path}: ${err.message}`);
  }
}
