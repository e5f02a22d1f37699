/**
 * A session id is the UTC start time to the millisecond and the proxy's pid:
 * `YYYYMMDDTHHMMSS.mmmZ-<pid>`. Ids sort by start time and name the log file.
 */
export function sessionId(startedUnixMs: number, pid: number): string {
  const iso = new Date(startedUnixMs).toISOString(); // 2026-09-23T21:20:00.123Z
  const compact = iso.replace(/[-:]/g, "");
  return `${compact}-${pid}`;
}

/**
 * The files the proxy names after a session: `<session>.jsonl`, and the side logs beside
 * it, `<session>.flow.jsonl` and `<session>.confirm.jsonl`. A session is an id as above,
 * with `-<n>` after it when one proxy serves several sessions. Nothing else matches, so
 * retention can tell the proxy's files from a user's (`notes.jsonl`, `package.json`).
 */
const SESSION_FILE = /^\d{8}T\d{6}\.\d{3}Z-[1-9]\d*(?:-[1-9]\d*)?(?:\.flow|\.confirm)?\.jsonl$/;

export function isSessionFileName(name: string): boolean {
  return SESSION_FILE.test(name);
}
