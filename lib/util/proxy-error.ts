/**
 * An error with context, printed as a chain from outermost to innermost (the shape of
 * anyhow's `{:#}`, so messages match other implementations of the proxy):
 * `outer context: inner cause`. The proxy turns one into `stretto-proxy: …` and exit 125.
 */
export class ProxyError extends Error {
  constructor(context: string, cause?: unknown) {
    super(cause === undefined ? context : `${context}: ${describe(cause)}`);
    this.name = "ProxyError";
  }
}

/** An error's message as a user should read it: Node's own text, without a stack. */
export function describe(err: unknown): string {
  if (err instanceof ProxyError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
