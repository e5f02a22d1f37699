/**
 * A session id is the UTC start time to the millisecond and the proxy's pid:
 * `YYYYMMDDTHHMMSS.mmmZ-<pid>`. Ids sort by start time and name the log file.
 */
export function sessionId(startedUnixMs: number, pid: number): string {
  const iso = new Date(startedUnixMs).toISOString(); // 2026-09-23T21:20:00.123Z
  const compact = iso.replace(/[-:]/g, "");
  return `${compact}-${pid}`;
}
