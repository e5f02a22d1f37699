import { constants, openSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";

/**
 * How the proxy opens a file it writes. Logs hold every tool call and result, so a file
 * it creates is its user's alone (0600), and the last path component is never followed
 * when it is a symbolic link: one planted where a log goes would otherwise send the
 * proxy's writes into whatever file it points at.
 */
export const PRIVATE_FILE_MODE = 0o600;

const { O_WRONLY, O_CREAT, O_APPEND, O_EXCL, O_NOFOLLOW } = constants;
const APPEND = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW;
const CREATE_NEW = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;

/** Opens `path` to append to, creating it 0600; a symbolic link there is refused. */
export function openToAppend(path: string): number {
  return refusingLinks(() => openSync(path, APPEND, PRIVATE_FILE_MODE));
}

/** Creates `path` 0600 and opens it to write; anything already there (a link too) is refused. */
export function createNew(path: string): number {
  return refusingLinks(() => openSync(path, CREATE_NEW, PRIVATE_FILE_MODE));
}

/** `createNew` for async callers. */
export async function createNewHandle(path: string): Promise<FileHandle> {
  try {
    return await open(path, CREATE_NEW, PRIVATE_FILE_MODE);
  } catch (err) {
    throw linkRefusal(err);
  }
}

function refusingLinks(opening: () => number): number {
  try {
    return opening();
  } catch (err) {
    throw linkRefusal(err);
  }
}

/**
 * O_NOFOLLOW on a link fails with ELOOP (EMLINK on some BSDs), whose own text ("too many
 * levels of symbolic links") would not tell the user what happened.
 */
function linkRefusal(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code !== "ELOOP" && code !== "EMLINK") return err;
  const refusal: NodeJS.ErrnoException = new Error("is a symbolic link; refusing to write through it");
  refusal.code = code;
  return refusal;
}
