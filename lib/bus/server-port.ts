import type { Readable, Writable } from "node:stream";
import type { Sender } from "./frame.js";

/** How a server's side of the session ended. */
export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The server end of a session, whatever carries it (a child process, Streamable HTTP):
 * bytes in, bytes out, and an ending. Everything above it is transport-blind.
 */
export interface ServerTransport {
  /** Lines for the server; ending it is the server's EOF. */
  readonly input: Writable;
  /** What the server writes, as bytes. Ends when the server has nothing more to say. */
  readonly output: Readable;
  /**
   * Who wrote the next line of `output`, asked once per line, in order: for a transport that
   * also writes lines of its own there (the HTTP transport's error answers when the server
   * fails), so they are logged as the proxy's. Absent: every line is the server's.
   */
  readonly lineFrom?: () => Sender;
  /** Resolves once the server is gone. */
  readonly exited: Promise<ExitStatus>;
  /**
   * Stops the server when the proxy is told to stop: polite, then firm, so a server gets the
   * chance to finish cleanly but can never keep the proxy (and the host) waiting
   * (docs/robustness.md).
   */
  shutdown(): Promise<void>;
}
