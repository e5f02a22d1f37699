import { lstatSync, readdirSync, unlinkSync } from "node:fs";
import { extname, join } from "node:path";
import { ProxyError } from "../util/proxy-error.js";

const DAY_MS = 86_400_000;

/**
 * Deletes `.jsonl` and `.json` files under `dir` (recursively) last modified more than
 * `days` days before `nowMs`. Symlinks are neither followed nor deleted; other files stay.
 * A missing directory counts 0. Returns how many files were deleted; a directory that
 * cannot be listed throws `listing <dir>: …` (deletions already made stay made).
 */
export function pruneOlderThan(dir: string, days: number, nowMs = Date.now()): number {
  const cutoff = nowMs - days * DAY_MS;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw new ProxyError(`listing ${dir}`, err);
  }
  let deleted = 0;
  for (const name of entries) {
    const path = join(dir, name);
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) continue;
    if (st.isDirectory()) {
      deleted += pruneOlderThan(path, days, nowMs);
    } else if (st.isFile() && [".jsonl", ".json"].includes(extname(name)) && st.mtimeMs < cutoff) {
      unlinkSync(path);
      deleted++;
    }
  }
  return deleted;
}
