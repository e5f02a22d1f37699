import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Folders the proxy creates hold its logs and cache: its user's alone. */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates `dir` and any missing parents, one level at a time, each 0700 (folders that
 * already exist keep their modes). Node's recursive mkdir retries for ever where mkdir
 * fails with ENOENT under an existing parent (in /proc, say); here the first level that
 * cannot be made throws its OS error. A `dir` that exists but is not a folder throws ENOTDIR.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    const st = statOrMissing(at);
    if (st !== undefined) {
      if (missing.length === 0 && !st.isDirectory()) throw notADirectory(dir);
      break;
    }
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level, { mode: PRIVATE_DIR_MODE });
    } catch (err) {
      // Made meanwhile by someone else: as good as made here.
      if ((err as NodeJS.ErrnoException).code === "EEXIST" && statOrMissing(level)?.isDirectory()) continue;
      throw err;
    }
  }
}

/** The level's stat, or undefined when it does not exist (or a parent is a file: mkdir will say). */
function statOrMissing(path: string) {
  try {
    return statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw err;
  }
}

function notADirectory(path: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`ENOTDIR: not a directory, mkdir '${path}'`);
  err.code = "ENOTDIR";
  return err;
}
