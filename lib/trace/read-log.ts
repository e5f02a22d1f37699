/**
 * Reading log files by streaming their bytes: lines are split on `\n` as they arrive and
 * handed to a {@link LogSink}, so memory follows what the sink keeps, not the file's size.
 * Errors say which step failed and on which file: `reading {path}: …` when the file cannot
 * be read (or is not UTF-8), `parsing {path}: …` when it is not a log. The wording is
 * documented (docs/trace.md, "The library") and scripts may match it, so keep it.
 */
import { isUtf8 } from "node:buffer";
import { closeSync, openSync, readSync, readdirSync } from "node:fs";
import { open, readdir, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { osErrorText } from "../util/os-errors.js";
import { compareCodePoints } from "./json.js";
import { LogFormatError, LogParser, type LogSink } from "./log-parser.js";
import type { LogEntry, LogHeader, McpLog } from "./log-types.js";

/** Why a log could not be read; `message` is the whole sentence to show. */
export class LogReadError extends Error {
  override name = "LogReadError";
  /**
   * Reading failed before a session-log header was read: the file is not a session log (0
   * bytes, another kind of file, not readable). Folder readers may skip such a file; a
   * log whose header was read and whose entries are damaged is not skipped.
   */
  readonly noHeader: boolean;

  constructor(message: string, options: { noHeader?: boolean } = {}) {
    super(message);
    this.noHeader = options.noHeader ?? false;
  }
}

const CHUNK_BYTES = 1 << 20;
/** The first read is smaller: a reader that stops early, or a small log, needs no more. */
const FIRST_READ_BYTES = 1 << 16;
/**
 * Read buffers kept for the next file, by size: a folder's logs are read one after another,
 * or a few at once while a folder is planned, so a buffer is nearly always at hand and a
 * folder of many small logs allocates no buffer per log (each one would be memory outside
 * the heap, given back only at the next collection).
 */
const spare = new Map<number, Buffer[]>([
  [FIRST_READ_BYTES, []],
  [CHUNK_BYTES, []],
]);
/** As many as the most files read at once (a folder's planning scans 8). */
const SPARE_BUFFERS = 8;

function takeBuffer(size: number): Buffer {
  return spare.get(size)!.pop() ?? Buffer.allocUnsafe(size);
}

function giveBack(buf: Buffer): void {
  const kept = spare.get(buf.length)!;
  if (kept.length < SPARE_BUFFERS) kept.push(buf);
}
const NOT_UTF8 = "stream did not contain valid UTF-8";

/** Stream the log at `path` into `sink`. */
export async function streamLog(path: string, sink: LogSink): Promise<void> {
  const parser = new LogParser(sink);
  try {
    const endedWithNewline = await forEachLine(path, (n, text) => parser.line(n, text));
    parser.end(endedWithNewline);
  } catch (e) {
    throw readError(e, path, parser);
  }
}

/** {@link streamLog}, reading the file synchronously ({@link forEachLineSync}): the same entries and errors. */
export function streamLogSync(path: string, sink: LogSink): void {
  const parser = new LogParser(sink);
  try {
    parser.end(forEachLineSync(path, (n, text) => parser.line(n, text)));
  } catch (e) {
    throw readError(e, path, parser);
  }
}

/** A reading's failure as the sentence to show (`parsing {path}: …`, `reading {path}: …`). */
function readError(e: unknown, path: string, parser: LogParser): unknown {
  const noHeader = !parser.hasHeader;
  if (e instanceof LogFormatError) return new LogReadError(`parsing ${path}: ${e.message}`, { noHeader });
  if (e instanceof Utf8Error) return new LogReadError(`reading ${path}: ${NOT_UTF8}`, { noHeader });
  if (e instanceof IoError) return new LogReadError(`reading ${path}: ${osErrorText(e.cause)}`, { noHeader });
  return e;
}

/** Read a whole log into memory. */
export async function readLog(path: string): Promise<McpLog> {
  let header: LogHeader | undefined;
  const entries: LogEntry[] = [];
  await streamLog(path, { header: (h) => (header = h), entry: (e) => entries.push(e) });
  return { header: header!, entries };
}

/** Whether `path` names a session log: `*.jsonl`, but not `*.flow.jsonl` or `*.confirm.jsonl`. */
export function isSessionLog(path: string): boolean {
  return path.endsWith(".jsonl") && !path.endsWith(".flow.jsonl") && !path.endsWith(".confirm.jsonl");
}

/** The session logs directly in `dir`, by file name. */
export async function sessionLogPaths(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    throw listingError(dir, e);
  }
  return logPathsOf(dir, names);
}

/** {@link sessionLogPaths}, the folder listed synchronously. */
export function sessionLogPathsSync(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw listingError(dir, e);
  }
  return logPathsOf(dir, names);
}

function listingError(dir: string, e: unknown): LogReadError {
  return new LogReadError(`listing ${dir}: ${osErrorText(e)}`);
}

function logPathsOf(dir: string, names: readonly string[]): string[] {
  return names.filter(isSessionLog).sort(compareCodePoints).map((name) => join(dir, name));
}

/** Every session log in `dir`, in memory, sorted by header `session`. */
export async function readSessions(dir: string): Promise<McpLog[]> {
  const logs: McpLog[] = [];
  for (const path of await sessionLogPaths(dir)) logs.push(await readLog(path));
  return logs.sort((a, b) => compareCodePoints(a.header.session, b.header.session));
}

/** A file could not be opened or read; `cause` says why. */
export class IoError extends Error {}
/** A file is not UTF-8. */
export class Utf8Error extends Error {}

/**
 * Call `onLine(n, text)` for each line of the file (1-based n; text without its `\n` and
 * one `\r` before it). Returns whether the file's last byte was `\n`. If `onLine` returns
 * `true`, reading stops there (and the result is `false`).
 */
export async function forEachLine(
  path: string,
  onLine: (n: number, text: string) => boolean | void,
): Promise<boolean> {
  const handle = await open(path, "r").catch((e: unknown) => {
    throw new IoError("open", { cause: e });
  });
  try {
    return await forEachLineOf(handle, onLine);
  } finally {
    await handle.close();
  }
}

/** {@link forEachLine} over an open file, from its current position. */
export async function forEachLineOf(
  handle: FileHandle,
  onLine: (n: number, text: string) => boolean | void,
): Promise<boolean> {
  const lines = new LineSplitter(onLine);
  try {
    for (;;) {
      const buf = lines.buffer();
      const { bytesRead } = await handle.read(buf, 0, buf.length, null).catch((e: unknown) => {
        throw new IoError("read", { cause: e });
      });
      if (bytesRead === 0) return lines.end();
      if (lines.feed(bytesRead)) return false;
    }
  } finally {
    lines.release();
  }
}

/**
 * {@link forEachLine} with the file read synchronously: for a reader that reads many
 * small logs one after another (the learner), where each asynchronous open, read and
 * close is a round trip through the thread pool that costs more than the read itself.
 * The same lines, errors and result.
 */
export function forEachLineSync(path: string, onLine: (n: number, text: string) => boolean | void): boolean {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new IoError("open", { cause: e });
  }
  try {
    return forEachLineOfSync(fd, onLine);
  } finally {
    closeSync(fd);
  }
}

/** {@link forEachLineSync} over an open file descriptor, from its current position. */
export function forEachLineOfSync(fd: number, onLine: (n: number, text: string) => boolean | void): boolean {
  const lines = new LineSplitter(onLine);
  try {
    for (;;) {
      const buf = lines.buffer();
      let bytesRead: number;
      try {
        bytesRead = readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        throw new IoError("read", { cause: e });
      }
      if (bytesRead === 0) return lines.end();
      if (lines.feed(bytesRead)) return false;
    }
  } finally {
    lines.release();
  }
}

/**
 * A file's bytes, read into the buffer it hands out, split into lines (`\n`, and one
 * `\r` before it, removed) and checked as UTF-8: what {@link forEachLineOf} and
 * {@link forEachLineSync} share, whichever way they read.
 */
class LineSplitter {
  /** A small buffer for the first read; the big one only for a log that needs more. */
  private buf = takeBuffer(FIRST_READ_BYTES);
  /** Whether the last read filled the buffer (the rest is read in big chunks). */
  private filled = false;
  /** The bytes of a line not yet ended, copied out of `buf` before it is reused. */
  private readonly partial: Buffer[] = [];
  private n = 0;
  private lastByte = -1;
  private stopped = false;

  constructor(private readonly onLine: (n: number, text: string) => boolean | void) {}

  /** The buffer the next read goes into. */
  buffer(): Buffer {
    // A read that filled the small buffer: the rest of the log is read in big chunks.
    if (this.filled && this.buf.length < CHUNK_BYTES) {
      giveBack(this.buf);
      this.buf = takeBuffer(CHUNK_BYTES);
    }
    return this.buf;
  }

  /** The `bytesRead` bytes just read into the buffer; true once `onLine` asked to stop. */
  feed(bytesRead: number): boolean {
    this.filled = bytesRead === this.buf.length;
    const data = this.buf.subarray(0, bytesRead);
    this.lastByte = data[bytesRead - 1]!;
    let nl = data.indexOf(0x0a);
    if (nl === -1) {
      this.partial.push(Buffer.from(data));
      return false;
    }
    let start = 0;
    if (this.partial.length > 0) {
      this.partial.push(data.subarray(0, nl));
      const line = Buffer.concat(this.partial);
      this.partial.length = 0;
      if (!isUtf8(line)) throw new Utf8Error();
      if (this.emit(line, 0, line.length)) return true;
      start = nl + 1;
      nl = data.indexOf(0x0a, start);
    }
    const last = data.lastIndexOf(0x0a);
    // One check for the whole read; only when it fails is each line checked, so the
    // lines before the bad one are still read (a good header says the file is a log).
    const eachLine = last >= start && !isUtf8(data.subarray(start, last + 1));
    while (nl !== -1) {
      if (eachLine && !isUtf8(data.subarray(start, nl))) throw new Utf8Error();
      if (this.emit(data, start, nl)) return true;
      start = nl + 1;
      nl = data.indexOf(0x0a, start);
    }
    if (start < data.length) this.partial.push(Buffer.from(data.subarray(start)));
    return false;
  }

  /** The file has ended: its last line if it had no `\n`; whether its last byte was `\n` (false if `onLine` stopped). */
  end(): boolean {
    if (this.partial.length > 0) {
      const line = Buffer.concat(this.partial);
      if (!isUtf8(line)) throw new Utf8Error();
      if (this.emit(line, 0, line.length)) return false;
    }
    return this.lastByte === 0x0a;
  }

  /** Gives the buffer back for the next file. */
  release(): void {
    giveBack(this.buf);
  }

  private emit(data: Buffer, start: number, end: number): boolean {
    if (end > start && data[end - 1] === 0x0d) end--;
    if (this.onLine(++this.n, data.toString("utf8", start, end)) === true) this.stopped = true;
    return this.stopped;
  }
}
