import { constants } from "node:os";
import { errorText } from "./error-text.js";

/**
 * The text Rust's `io::Error` prints (`No such file or directory (os error 2)`), so error
 * messages read the same whichever implementation of the tools printed them, and scripts
 * that match them keep working.
 */
const TEXTS: Record<string, string> = {
  ENOENT: "No such file or directory",
  EACCES: "Permission denied",
  ENOTDIR: "Not a directory",
  EISDIR: "Is a directory",
  EEXIST: "File exists",
  ENOSPC: "No space left on device",
  ENOEXEC: "Exec format error",
  EPIPE: "Broken pipe",
  EROFS: "Read-only file system",
  EMFILE: "Too many open files",
  E2BIG: "Argument list too long",
};

/** `No such file or directory (os error 2)` for an errno error; the message otherwise. */
export function osErrorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const code = e?.code;
  if (code && code in TEXTS) {
    const errno = (constants.errno as Record<string, number>)[code];
    return errno === undefined ? TEXTS[code]! : `${TEXTS[code]} (os error ${errno})`;
  }
  return errorText(err);
}
