/**
 * Whether a session is being recorded now. A proxy names its log after its start time and its
 * process id (`YYYYMMDDTHHMMSS.mmmZ-<pid>`, `-<n>` after it for one of several sessions of a
 * listening proxy) and writes no closing line, so a log is live while that process runs and
 * the log grew lately: the process test alone would call a log live whose pid was reused long
 * after, the time alone a log whose proxy just stopped.
 */
const SESSION = /^\d{8}T\d{6}\.\d{3}Z-([1-9]\d*)(?:-[1-9]\d*)?$/;

/** How recently a live log must have grown. */
export const LIVE_WINDOW_MS = 10 * 60 * 1000;

export function proxyPid(sessionId: string): number | undefined {
  const m = SESSION.exec(sessionId);
  return m === null ? undefined : Number(m[1]);
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function isLive(sessionId: string, mtimeMs: number, now: number): boolean {
  if (now - mtimeMs > LIVE_WINDOW_MS) return false;
  const pid = proxyPid(sessionId);
  return pid !== undefined && running(pid);
}
