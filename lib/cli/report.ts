/** The proxy's own voice: one line on stderr, prefixed, never on stdout (the protocol's). */
export function say(program: string, message: string): void {
  try {
    process.stderr.write(`${program}: ${message}\n`);
  } catch {
    // stderr gone: nothing else to tell.
  }
}

/** Exit codes that are part of the contract. */
export const EXIT_USAGE = 2;
export const EXIT_PROXY_FAILED = 125;

/** The shell's rule: the server's code, or 128 + n when signal n ended it; 125 if neither. */
export function exitCodeOf(status: { code: number | null; signal: NodeJS.Signals | null }, signals: Record<string, number>): number {
  if (status.code !== null) return status.code;
  if (status.signal !== null && signals[status.signal] !== undefined) return 128 + signals[status.signal]!;
  return EXIT_PROXY_FAILED;
}
