/**
 * What grouping a folder needs of a log (see sessions.ts), read without reading the whole log: the
 * header, the server's name (from the header, else the first lines until the server names
 * itself) and when its last entry was logged (from the end of the file). A folder of big
 * logs is then read once, not twice. Whatever the quick read cannot settle (a malformed
 * line near the end) is left to a full read, which words the error as the reader does.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { osErrorText } from "../util/os-errors.js";
import { LogParser, isBlank, parseEntry } from "./log-parser.js";
import type { LogHeader } from "./log-types.js";
import { LogReadError, forEachLineOf, forEachLineOfSync, streamLog, streamLogSync } from "./read-log.js";
import { ServerNameFinder } from "./server-name.js";
import type { LogSummary } from "./sessions.js";

const TAIL_BYTES = 1 << 16;

/** The summary of the log at `path`. */
export async function scanLog(path: string): Promise<LogSummary> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (e) {
    throw openError(path, e);
  }
  let quick: LogSummary | undefined;
  try {
    quick = await quickScan(handle);
  } catch {
    // Left to the full read below, which words the error as the reader does.
  } finally {
    await handle.close();
  }
  return quick ?? fullScan(path);
}

/**
 * {@link scanLog}, the file read synchronously: the same summary and errors. For a batch
 * tool planning a folder of many small logs, where each asynchronous open, read, stat and
 * close is a round trip through the thread pool that costs more than the read itself.
 */
export function scanLogSync(path: string): LogSummary {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw openError(path, e);
  }
  let quick: LogSummary | undefined;
  try {
    quick = quickScanSync(fd);
  } catch {
    // Left to the full read below, as scanLog does.
  } finally {
    closeSync(fd);
  }
  return quick ?? fullScanSync(path);
}

function openError(path: string, e: unknown): LogReadError {
  return new LogReadError(`reading ${path}: ${osErrorText(e)}`, { noHeader: true });
}

/** Follows a log's lines for its summary: the header, the server's name, the last time. */
class SummarySink {
  header: LogHeader | undefined;
  finder: ServerNameFinder | undefined;
  lastTMs = 0;
  readonly sink = {
    header: (h: LogHeader) => {
      this.header = h;
      this.finder = new ServerNameFinder(h);
    },
    entry: (e: { t_ms: number } & Parameters<ServerNameFinder["entry"]>[0]) => {
      this.lastTMs = e.t_ms;
      this.finder!.entry(e);
    },
  };

  summary(lastTMs = this.lastTMs): LogSummary {
    return { header: this.header!, lastTMs, serverName: this.finder!.name };
  }
}

/** The summary, reading every line. */
export async function fullScan(path: string): Promise<LogSummary> {
  const s = new SummarySink();
  await streamLog(path, s.sink);
  return s.summary();
}

/** {@link fullScan}, reading synchronously. */
export function fullScanSync(path: string): LogSummary {
  const s = new SummarySink();
  streamLogSync(path, s.sink);
  return s.summary();
}

/**
 * The header and server name from the first lines, then the last entry's time from the
 * end. Undefined (or a throw) when that does not settle it.
 */
async function quickScan(handle: FileHandle): Promise<LogSummary | undefined> {
  const head = new HeadScan();
  const ended = await forEachLineOf(handle, head.onLine);
  return head.found ? head.withLast(await readLastTMs(handle)) : head.summaryAtEnd(ended);
}

function quickScanSync(fd: number): LogSummary | undefined {
  const head = new HeadScan();
  const ended = forEachLineOfSync(fd, head.onLine);
  return head.found ? head.withLast(readLastTMsSync(fd)) : head.summaryAtEnd(ended);
}

/** The first lines of a log read until the server's name is known. */
class HeadScan {
  private readonly s = new SummarySink();
  private readonly parser = new LogParser(this.s.sink);
  /** Reads a line; true (stop) once the name is known. */
  readonly onLine = (n: number, text: string): boolean => {
    this.parser.line(n, text);
    return this.found;
  };

  get found(): boolean {
    return this.s.finder?.found === true;
  }

  /** The whole log was read: everything is known. */
  summaryAtEnd(endedWithNewline: boolean): LogSummary {
    this.parser.end(endedWithNewline);
    return this.s.summary();
  }

  /** The summary with the last entry's time read from the end, if it was. */
  withLast(lastTMs: number | undefined): LogSummary | undefined {
    return lastTMs === undefined ? undefined : this.s.summary(lastTMs);
  }
}

/**
 * The `t_ms` of the log's last entry, read from the end: the last non-blank line, or the
 * one before it when the last was cut off mid-write (no `\n` at the end of the file).
 * Undefined when the end does not read cleanly (or the file shrank meanwhile). The tail
 * read is doubled until it settles the answer, so a huge last line takes a few reads.
 */
async function readLastTMs(handle: FileHandle): Promise<number | undefined> {
  const size = (await handle.stat()).size;
  for (let length = Math.min(size, TAIL_BYTES); length > 0; length = Math.min(size, 2 * length)) {
    const tail = Buffer.allocUnsafe(length);
    if ((await handle.read(tail, 0, length, size - length)).bytesRead !== length) return undefined;
    const found = lastTMsIn(tail, length === size, tail[length - 1] === 0x0a);
    if (found !== "more") return found;
  }
  return undefined;
}

/** The tail is read into this buffer when it fits: planning reads one log at a time. */
const tailScratch = Buffer.allocUnsafe(TAIL_BYTES);

/** {@link readLastTMs}, reading synchronously, each tail that fits into one kept buffer. */
function readLastTMsSync(fd: number): number | undefined {
  const size = fstatSync(fd).size;
  for (let length = Math.min(size, TAIL_BYTES); length > 0; length = Math.min(size, 2 * length)) {
    const from = size - length;
    const buf = length <= tailScratch.length ? tailScratch.subarray(0, length) : Buffer.allocUnsafe(length);
    if (readSync(fd, buf, 0, length, from) !== length) return undefined;
    // Read from the file's start, the answer is never "more".
    const found = lastTMsIn(buf, from === 0, buf[length - 1] === 0x0a);
    if (found !== "more") return found;
  }
  return undefined;
}

/** The last entry's time in `tail`, "more" if it needs more of the file, undefined if unclear. */
function lastTMsIn(tail: Buffer, fromStart: boolean, endedWithNewline: boolean): number | undefined | "more" {
  // Walk the lines back from the end; only the last one or two non-blank lines matter.
  const exhausted = fromStart ? 0 : "more";
  let end = tail.length;
  let tries = 0;
  while (end > 0) {
    const nl = tail.lastIndexOf(0x0a, end - 1);
    // A line with no `\n` before it is whole only at the start of the file.
    if (nl === -1 && !fromStart) return "more";
    const start = nl + 1;
    let text = tail.toString("utf8", start, end);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    end = nl === -1 ? 0 : nl;
    if (isBlank(text)) continue;
    // The first non-blank line of the file is the header, not an entry.
    if (fromStart && !hasNonBlankBefore(tail, start)) return 0;
    const entry = parseEntry(text);
    if (typeof entry !== "string") return entry.t_ms;
    // Only the very last line may be cut off, and only when the file does not end in `\n`.
    if (tries > 0 || endedWithNewline) return undefined;
    tries++;
  }
  return exhausted;
}

/** Whether `buf[0, end)` holds anything but whitespace. */
function hasNonBlankBefore(buf: Buffer, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return true;
  }
  return false;
}
