/**
 * Reading log files by streaming their bytes: lines are split on `\n` as they arrive and
 * handed to a {@link LogSink}, so memory follows what the sink keeps, not the file's size.
 * Errors say which step failed and on which file: `reading {path}: …` when the file cannot
 * be read (or is not UTF-8), `parsing {path}: …` when it is not a log. The wording is
 * documented (docs/trace.md, "The library") and scripts may match it, so keep it.
 */
import { isUtf8 } from "node:buffer";
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
    const noHeader = !parser.hasHeader;
    if (e instanceof LogFormatError) throw new LogReadError(`parsing ${path}: ${e.message}`, { noHeader });
    if (e instanceof Utf8Error) throw new LogReadError(`reading ${path}: ${NOT_UTF8}`, { noHeader });
    if (e instanceof IoError) throw new LogReadError(`reading ${path}: ${osErrorText(e.cause)}`, { noHeader });
    throw e;
  }
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
    throw new LogReadError(`listing ${dir}: ${osErrorText(e)}`);
  }
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
  // A small buffer for the first read; the big one only for a log that needs more.
  let buf = takeBuffer(FIRST_READ_BYTES);
  try {
    // The bytes of a line not yet ended, copied out of `buf` before it is reused.
    const partial: Buffer[] = [];
    let n = 0;
    let lastByte = -1;
    let stopped = false;
    const emit = (data: Buffer, start: number, end: number): void => {
      if (end > start && data[end - 1] === 0x0d) end--;
      if (onLine(++n, data.toString("utf8", start, end)) === true) stopped = true;
    };
    for (let filled = false; ; ) {
      // A read that filled the small buffer: the rest of the log is read in big chunks.
      if (filled && buf.length < CHUNK_BYTES) {
        giveBack(buf);
        buf = takeBuffer(CHUNK_BYTES);
      }
      const { bytesRead } = await handle.read(buf, 0, buf.length, null).catch((e: unknown) => {
        throw new IoError("read", { cause: e });
      });
      if (bytesRead === 0) break;
      filled = bytesRead === buf.length;
      const data = buf.subarray(0, bytesRead);
      lastByte = data[bytesRead - 1]!;
      let nl = data.indexOf(0x0a);
      if (nl === -1) {
        partial.push(Buffer.from(data));
        continue;
      }
      let start = 0;
      if (partial.length > 0) {
        partial.push(data.subarray(0, nl));
        const line = Buffer.concat(partial);
        partial.length = 0;
        if (!isUtf8(line)) throw new Utf8Error();
        emit(line, 0, line.length);
        if (stopped) return false;
        start = nl + 1;
        nl = data.indexOf(0x0a, start);
      }
      const last = data.lastIndexOf(0x0a);
      // One check for the whole read; only when it fails is each line checked, so the
      // lines before the bad one are still read (a good header says the file is a log).
      const eachLine = last >= start && !isUtf8(data.subarray(start, last + 1));
      while (nl !== -1) {
        if (eachLine && !isUtf8(data.subarray(start, nl))) throw new Utf8Error();
        emit(data, start, nl);
        if (stopped) return false;
        start = nl + 1;
        nl = data.indexOf(0x0a, start);
      }
      if (start < data.length) partial.push(Buffer.from(data.subarray(start)));
    }
    if (partial.length > 0) {
      const line = Buffer.concat(partial);
      if (!isUtf8(line)) throw new Utf8Error();
      emit(line, 0, line.length);
      if (stopped) return false;
    }
    return lastByte === 0x0a;
  } finally {
    giveBack(buf);
  }
}
