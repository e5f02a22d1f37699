import { lstatSync, readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { isAnswerPlace } from "../oracle/cache-layout.js";
import { osErrorText } from "../util/os-errors.js";
import { ProxyError } from "../util/proxy-error.js";
import { isSessionFileName } from "./session-id.js";

const DAY_MS = 86_400_000;

/**
 * `--retain-days` in the `--record` folder: deletes the session logs and their side logs
 * (`<session>.jsonl`, `.flow.jsonl`, `.confirm.jsonl`, directly in `dir`) last modified
 * more than `days` days before `nowMs`. Only names the proxy gives its files count: a
 * record folder may be a project's folder too, with a `package.json` or a `notes.jsonl`.
 * Subfolders are not entered and symlinks are neither followed nor deleted. A missing
 * folder counts 0; one that cannot be listed throws `listing <dir>: …`. Returns how many
 * files were deleted.
 */
export function pruneSessionLogs(dir: string, days: number, nowMs = Date.now()): number {
  const cutoff = nowMs - days * DAY_MS;
  let deleted = 0;
  for (const name of listing(dir) ?? []) {
    if (isSessionFileName(name) && deleteIfOld(join(dir, name), cutoff)) deleted++;
  }
  return deleted;
}

/**
 * `--retain-days` in the `--oracle-cache` folder: deletes the answers older than `days`
 * days, in the cache's own layout only (`<key[0..2]>/<key>.json`, hex keys under the
 * folder named by their first two digits). Folders that are symlinks are not entered;
 * anything else stays. A missing folder counts 0; a folder that cannot be listed throws
 * `listing <folder>: …` (deletions already made stay made).
 */
export function pruneAnswerCache(dir: string, days: number, nowMs = Date.now()): number {
  const cutoff = nowMs - days * DAY_MS;
  let deleted = 0;
  for (const folder of listing(dir) ?? []) {
    if (!/^[0-9a-f]{2}$/.test(folder)) continue;
    const path = join(dir, folder);
    if (!lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const name of listing(path) ?? []) {
      if (isAnswerPlace(folder, name) && deleteIfOld(join(path, name), cutoff)) deleted++;
    }
  }
  return deleted;
}

/** The names in `dir`, or undefined when it does not exist. */
function listing(dir: string): string[] | undefined {
  try {
    return readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ProxyError(`listing ${dir}: ${osErrorText(err)}`);
  }
}

/** Deletes `path` when it is a regular file (not a link) older than `cutoff`. */
function deleteIfOld(path: string, cutoff: number): boolean {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st?.isFile() || st.mtimeMs >= cutoff) return false;
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false; // gone meanwhile
    throw new ProxyError(`deleting ${path}: ${osErrorText(err)}`);
  }
  return true;
}
