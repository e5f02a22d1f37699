/** Planning a folder's sessions for a command: progress while scanning, then what was merged. */
import { planFolder, type Folder } from "../../trace/index.js";
import { say, type Io } from "./command.js";
import { PROGRESS_MIN_LOGS, ProgressLine } from "./progress.js";

/** The folder's plan, and the progress line to go on with (shown for big folders only). */
export async function planWithProgress(io: Io, dir: string): Promise<{ folder: Folder; progress: ProgressLine }> {
  const progress = new ProgressLine(io);
  const folder = await planFolder(dir, (done, total) => {
    if (done === 1) progress.enabled = total >= PROGRESS_MIN_LOGS;
    progress.update("scanning logs", done, total);
  });
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
