/**
 * `stretto init --write PATH`: the configuration written into the host's file, merged into
 * what is there. The new text goes to a temporary file beside it, which is then renamed
 * over it (or linked into place when there was no file, so one made meanwhile is never
 * overwritten): a host reading the file sees the old text or the new, never half of one.
 * A file that exists keeps its mode; a new one is its user's alone (0600), since a host's
 * configuration may hold other servers' secrets.
 */
import { closeSync, linkSync, lstatSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from "node:fs";
import { basename, dirname, join } from "node:path";
import { makeDirs } from "../util/make-dirs.js";
import { osErrorText } from "../util/os-errors.js";
import { PRIVATE_FILE_MODE } from "../util/safe-open.js";
import { mergeConfig } from "./merge-config.js";
import type { Setup } from "./setup.js";

/** Why `--write` wrote nothing; the message is the whole line after `stretto: `. */
export class InitError extends Error {
  override name = "InitError";
}

export type Written = "wrote" | "added" | "replaced";

export function writeConfig(path: string, s: Setup, force: boolean): Written {
  const dir = dirname(path);
  try {
    makeDirs(dir);
  } catch (e) {
    throw new InitError(`creating ${dir}: ${osErrorText(e)}`);
  }
  const existing = existingFile(path);
  const merged = mergeConfig(path, existing?.text, s, force);
  if (merged.kind === "refused") throw new InitError(merged.reason);
  const target = existing?.real ?? path;
  const temp = join(dirname(target), `.${basename(target)}.stretto-init-${process.pid}.tmp`);
  try {
    const fd = openSync(temp, "wx", existing === undefined ? PRIVATE_FILE_MODE : existing.mode);
    try {
      const bytes = Buffer.from(merged.text, "utf8");
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
    } finally {
      closeSync(fd);
    }
    if (existing === undefined) {
      linkSync(temp, target);
      unlinkSync(temp);
    } else {
      renameSync(temp, target);
    }
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // Never made, or already renamed.
    }
    if ((e as NodeJS.ErrnoException).code === "EEXIST" && existing === undefined) throw new InitError(`writing ${path}: a file appeared there meanwhile; run this again`);
    throw new InitError(`writing ${path}: ${osErrorText(e)}`);
  }
  return merged.kind === "new" ? "wrote" : merged.kind;
}

/** The file at `path` as it is now (through a symbolic link), or undefined when there is none. */
function existingFile(path: string): { text: string; real: string; mode: number } | undefined {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new InitError(`reading ${path}: ${osErrorText(e)}`);
  }
  let real = path;
  try {
    if (st.isSymbolicLink()) {
      // A configuration kept elsewhere (a dotfiles folder, say) is written where it lives.
      real = realpathSync(path);
      st = statSync(real);
    }
    // A device or a FIFO is never read: /dev/zero would never end.
    if (!st.isFile()) throw new InitError(`writing ${path}: not a regular file`);
    return { text: readFileSync(real, "utf8"), real, mode: st.mode & 0o7777 };
  } catch (e) {
    if (e instanceof InitError) throw e;
    throw new InitError(`reading ${path}: ${osErrorText(e)}`);
  }
}
