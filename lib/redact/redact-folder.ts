/**
 * Redaction of a folder's session logs into another folder, streamed: the census reads
 * every log once, then each log is read again and its copy written line by line, so
 * memory holds the census, not the logs.
 *
 * Copies are written as the proxy writes its logs: folders it makes 0700, files 0600, and
 * never through a symbolic link. Each copy is written under a temporary name first and
 * renamed into place once whole, so a copy that stops half-way never looks like a log,
 * and running again over the same --out replaces the copies.
 */
import { randomBytes } from "node:crypto";
import { closeSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { streamLog } from "../trace/read-log.js";
import { entryJson, type LogHeader } from "../trace/log-types.js";
import { makeDirs } from "../util/make-dirs.js";
import { createNew } from "../util/safe-open.js";
import { sessionFileName } from "./file-name.js";
import { headerLine } from "./header-line.js";
import type { RedactOptions } from "./options.js";
import { newCensus, rewriter } from "./redact-logs.js";

/** A session log to redact, with the session id its header names. */
export interface LogToRedact {
  path: string;
  session: string;
  /**
   * The session its values are counted in, when not its own: the logs one host session
   * left with several servers are one conversation (each holds the customer's words), and
   * counted apart they would make a customer's values look shared.
   */
  countedAs?: string;
}

/** How far the work has come: a pass over the logs, `done` of `total`. */
export type RedactProgress = (pass: "counting" | "writing", done: number, total: number) => void;

/** Two logs whose copies would have one name. */
export class SharedSessionId extends Error {
  constructor(readonly session: string) {
    super(`two logs share the session id ${session}`);
  }
}

/** Write a redacted copy of each log into `out`; the logs are counted in the order given. */
export async function redactFolder(logs: readonly LogToRedact[], out: string, options: RedactOptions, progress?: RedactProgress): Promise<void> {
  const names = new Set<string>();
  for (const log of logs) {
    const name = sessionFileName(log.session);
    if (names.has(name)) throw new SharedSessionId(name.slice(0, -".jsonl".length));
    names.add(name);
  }

  const counting = newCensus(options);
  for (const [i, log] of logs.entries()) {
    const walk = counting.session(log.countedAs ?? log.session);
    await streamLog(log.path, { entry: (e) => void walk.entry(e) });
    progress?.("counting", i + 1, logs.length);
  }

  makeDirs(out);
  const rewrite = rewriter(counting.census, options);
  for (const [i, log] of logs.entries()) {
    const walk = rewrite.log();
    await writeCopy(join(out, sessionFileName(log.session)), async (write) => {
      await streamLog(log.path, {
        header: (h: LogHeader) => write(headerLine(h)),
        entry: (e) => write(entryJson(walk.entry(e))),
      });
    });
    progress?.("writing", i + 1, logs.length);
  }
}

const FLUSH_AT = 1 << 16;

/** Fill `path` through `fill` (one line per call), under a temporary name until whole. */
async function writeCopy(path: string, fill: (write: (line: string) => void) => Promise<void>): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.part`;
  const fd = createNew(temporary);
  let buffered = "";
  const flush = (): void => {
    if (buffered !== "") writeSync(fd, buffered);
    buffered = "";
  };
  try {
    await fill((line) => {
      buffered += line + "\n";
      if (buffered.length >= FLUSH_AT) flush();
    });
    flush();
    closeSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkSync(temporary);
    throw e;
  }
  renameSync(temporary, path);
}
