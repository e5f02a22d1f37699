import { errorText } from "./error-text.js";

/**
 * An error with context, printed as a chain from outermost to innermost (the shape of
 * anyhow's `{:#}`, so messages match other implementations of the proxy):
 * `outer context: inner cause`. The proxy turns one into `stretto-proxy: …` and exit 125.
 */
export class ProxyError extends Error {
  constructor(context: string, cause?: unknown) {
    super(cause === undefined ? context : `${context}: ${errorText(cause)}`);
    this.name = "ProxyError";
  }
}
