/**
 * The redacted copy of a session is named after its session id, which comes from inside the
 * log: every character but `A-Z a-z 0-9 _ -` becomes `_`, so no id can name a path.
 */
export function sessionFileName(session: string): string {
  return `${Array.from(session, (c) => (/^[A-Za-z0-9_-]$/.test(c) ? c : "_")).join("")}.jsonl`;
}
