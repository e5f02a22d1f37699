/**
 * The proxy's own voice: one line on stderr, prefixed, never on stdout (the protocol's).
 * A pipe's stderr is written synchronously, so the lines said in one turn (a refusal per
 * refused call of a batch of reads) go out together at its end, or when the process exits.
 */
export function say(program: string, message: string): void {
  held.push(`${program}: ${message}\n`);
  if (held.length === 1) process.nextTick(flushSaid);
}

let held: string[] = [];

function flushSaid(): void {
  if (held.length === 0) return;
  const text = held.join("");
  held = [];
  try {
    process.stderr.write(text);
  } catch {
    // stderr gone: nothing else to tell.
  }
}
process.on("exit", flushSaid);

/** Exit codes that are part of the contract. */
export const EXIT_USAGE = 2;
export const EXIT_PROXY_FAILED = 125;

/** The shell's rule: the server's code, or 128 + n when signal n ended it; 125 if neither. */
export function exitCodeOf(status: { code: number | null; signal: NodeJS.Signals | null }, signals: Record<string, number>): number {
  if (status.code !== null) return status.code;
  if (status.signal !== null && signals[status.signal] !== undefined) return 128 + signals[status.signal]!;
  return EXIT_PROXY_FAILED;
}
