import type { Readable, Writable } from "node:stream";

/**
 * The host end of a session, whatever carries it (the proxy's own stdin and stdout, or one
 * host session over Streamable HTTP): the host's lines in, the lines for the host out. The
 * bus, the plugins and the recorder see only these two streams, so they run the same on
 * every host transport, as they do on every `ServerTransport`.
 */
export interface HostTransport {
  /** The host's lines, `\n`-terminated; ending it is the host leaving. */
  readonly input: Readable;
  /** Lines for the host, as the bus writes them. */
  readonly output: Writable;
}

/** The host on the proxy's own stdio: the transport a host that starts the proxy uses. */
export function stdioHost(): HostTransport {
  return { input: process.stdin, output: process.stdout };
}
