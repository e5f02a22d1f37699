/** Planning a folder's sessions for a command: progress while scanning, then what was merged. */
import { planFolder, type Folder, type SkippedLog } from "../../trace/index.js";
import { say, type Io } from "./command.js";
import { ProgressLine } from "./progress.js";

/** The `--strict` flag of the commands that read a folder of logs, and its help lines. */
export const STRICT_FLAG = "--strict";
export const STRICT_HELP = [
  "A file in the folder named *.jsonl that is no session log is skipped, with one line on",
  "stderr naming it and saying why: 0 bytes (a proxy killed before its first line, or one",
  "still starting, leaves such a file), a first line that is no log header, a file that",
  "cannot be read, or not a regular file (a FIFO, a socket, a device, a folder; such files",
  "are never opened). Symbolic links are followed to regular files only. With --strict,",
  "such a file is an error instead (exit 1). A log with a good header and a damaged line",
  "is always an error.",
];

/**
 * The folder's plan, and the progress line to go on with (shown for big folders only, and
 * never when `quiet`). Files that are no session logs are skipped with a warning, or fail
 * the command when `strict`.
 */
export async function planWithProgress(io: Io, dir: string, strict = false, quiet = false): Promise<{ folder: Folder; progress: ProgressLine }> {
  const progress = new ProgressLine(io, { quiet });
  const skip = (s: SkippedLog): void => {
    progress.done(); // a progress line drawn in place would run into the warning
    say(io, `skipped ${s.path}: ${s.reason}`);
  };
  const folder = await planFolder(
    dir,
    (done, total) => {
      if (done === 1) progress.start(total);
      progress.update("scanning logs", done, total);
    },
    strict ? undefined : skip,
    // A batch command has nothing else to do meanwhile: synchronous scans are several times faster.
    { sync: true },
  );
  progress.done();
  reportMerge(io, folder);
  return { folder, progress };
}

function reportMerge(io: Io, folder: Folder): void {
  const { mergedLogs, mergedSessions, apart } = folder.plan;
  if (mergedSessions > 0) {
    say(io, `merged ${mergedLogs} logs into ${mergedSessions} session${mergedSessions === 1 ? "" : "s"} across servers`);
  }
  for (const host of apart) {
    say(io, `kept the logs of host session ${host} apart: two servers of one name ran in it at once`);
  }
}
