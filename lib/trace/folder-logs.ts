/**
 * The session logs of a folder that can be read as files, and those that cannot be.
 *
 * A folder holds more than finished logs: a proxy killed before its first line leaves a
 * 0-byte one, and anything else may be named `*.jsonl` (a FIFO, a socket, a folder).
 * Opening a FIFO waits for a writer for ever, and opening a device may do something, so
 * each name is looked at with lstat and only regular files are opened. A symbolic link is
 * followed only when it leads to a regular file: reading is harmless, and linking chosen
 * logs into a folder is a natural way to make a set of them.
 */
import { lstatSync, statSync, type Stats } from "node:fs";
import { lstat, stat } from "node:fs/promises";
import { osErrorText } from "../util/os-errors.js";
import { LogReadError, sessionLogPaths, sessionLogPathsSync } from "./read-log.js";

/** A file left out of a folder's reading, and why (`empty log: no header line`). */
export interface SkippedLog {
  path: string;
  reason: string;
}

/**
 * Told about each file named as a log that is none (not a regular file, 0 bytes, no log
 * header, unreadable). Given, folder readers skip such a file and go on; without it, the
 * first such file fails the whole reading (a {@link LogReadError}).
 */
export type SkipHandler = (skipped: SkippedLog) => void;

/** One name of the folder's listing: a file to read, or why it is not one. */
export type Listed = { path: string; readable: true } | { path: string; readable: false; reason: string };

/** The folder's session logs by name (`*.jsonl`, not side logs), each checked before it is opened. */
export async function listFolderLogs(dir: string): Promise<Listed[]> {
  const paths = await sessionLogPaths(dir);
  return Promise.all(paths.map(check));
}

/** {@link listFolderLogs}, the folder listed and each name looked at synchronously. */
export function listFolderLogsSync(dir: string): Listed[] {
  return sessionLogPathsSync(dir).map(checkSync);
}

async function check(path: string): Promise<Listed> {
  let s: Stats;
  try {
    s = await lstat(path);
  } catch (e) {
    return { path, readable: false, reason: osErrorText(e) };
  }
  if (!s.isSymbolicLink()) return notALink(path, s);
  try {
    return followed(path, await stat(path));
  } catch (e) {
    return brokenLink(path, e);
  }
}

function checkSync(path: string): Listed {
  let s: Stats;
  try {
    s = lstatSync(path);
  } catch (e) {
    return { path, readable: false, reason: osErrorText(e) };
  }
  if (!s.isSymbolicLink()) return notALink(path, s);
  try {
    return followed(path, statSync(path));
  } catch (e) {
    return brokenLink(path, e);
  }
}

/** What a name that is no symbolic link is. */
function notALink(path: string, s: Stats): Listed {
  return s.isFile() ? { path, readable: true } : { path, readable: false, reason: `${kindOf(s)}, not a regular file` };
}

/** What a symbolic link leads to. */
function followed(path: string, s: Stats): Listed {
  return s.isFile() ? { path, readable: true } : { path, readable: false, reason: `a symbolic link to ${kindOf(s)}, not to a regular file` };
}

function brokenLink(path: string, e: unknown): Listed {
  return { path, readable: false, reason: `a symbolic link that leads nowhere (${osErrorText(e)})` };
}

function kindOf(s: Stats): string {
  if (s.isFIFO()) return "a FIFO (named pipe)";
  if (s.isSocket()) return "a socket";
  if (s.isCharacterDevice()) return "a character device";
  if (s.isBlockDevice()) return "a block device";
  if (s.isDirectory()) return "a folder";
  return "an unknown kind of file";
}

/** What a reader's error says about the log, without the `parsing <path>: ` before it. */
export function skipReason(e: LogReadError, path: string): string {
  for (const verb of ["reading", "parsing"]) {
    const prefix = `${verb} ${path}: `;
    if (e.message.startsWith(prefix)) return e.message.slice(prefix.length);
  }
  return e.message;
}

/** The error a refused file is without a skip handler: worded as the readers word theirs. */
export function skipError(s: SkippedLog): LogReadError {
  return new LogReadError(`reading ${s.path}: ${s.reason}`, { noHeader: true });
}
