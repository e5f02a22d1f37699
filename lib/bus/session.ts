import type { Readable, Writable } from "node:stream";
import { tap, type Observable } from "./rx.js";
import type { ServerTransport, ExitStatus } from "./server-port.js";
import type { RecordSink } from "./record-port.js";
import type { Clock } from "./clock.js";
import type { Frame } from "./frame.js";
import { lineSource } from "./line-source.js";
import { Pressure } from "./pressure.js";
import { WriteSink } from "./write-sink.js";

export interface SessionIo {
  /** The host's side: its lines in, ours out. */
  hostIn: Readable;
  hostOut: Writable;
  server: ServerTransport;
  clock: Clock;
  /** Present with `--record`: fed each line before it is forwarded. */
  recorder?: RecordSink | undefined;
  /** Says something on stderr, prefixed by the caller. */
  report: (message: string) => void;
}

/**
 * The two directions of a session as frame streams, straight from their sources (long
 * lines in pieces), and the backpressured sinks they go to.
 */
export interface SessionBus {
  client$: Observable<Frame>;
  server$: Observable<Frame>;
  toServer: WriteSink;
  toClient: WriteSink;
}

export function sessionBus(io: SessionIo): SessionBus {
  const toServerPressure = new Pressure();
  const toClientPressure = new Pressure();
  // Piece limit 0: whatever of a line a read brought goes on at once, without being joined
  // (only the recorder and active mode, which need whole lines, join the pieces).
  const client$ = lineSource(io.hostIn, {
      from: "client",
      pieceLimit: 0,
      clock: io.clock,
      pressure: toServerPressure,
      onReadError: (e) => io.report(`reading from the client: ${e.message}`),
    });
  const server$ = lineSource(io.server.output, {
      from: "server",
      // A transport's own lines (an HTTP error answer) are the proxy's.
      lineFrom: io.server.lineFrom,
      pieceLimit: 0,
      clock: io.clock,
      pressure: toClientPressure,
      onReadError: (e) => io.report(`reading from the server: ${e.message}`),
    });
  const toServer = new WriteSink(io.server.input, {
    pressure: toServerPressure,
    endOnComplete: true,
    onWriteError: (e) => io.report(`forwarding to the server: ${e.message}`),
  });
  const toClient = new WriteSink(io.hostOut, {
    pressure: toClientPressure,
    onWriteError: (e) => io.report(`forwarding to the client: ${e.message}`),
  });
  return { client$, server$, toServer, toClient };
}

/**
 * Passive mode: every line goes through byte for byte, both ways. Resolves with the
 * server's exit status once it has closed its output and exited, everything it wrote has
 * reached the host, and the log is complete.
 */
export async function runPassiveSession(io: SessionIo): Promise<ExitStatus> {
  const bus = sessionBus(io);
  const record = io.recorder?.record;
  const recorded = (frames: Observable<Frame>) => (record ? frames.pipe(tap(record)) : frames);
  const serverDone = new Promise<void>((resolve) => {
    recorded(bus.server$).subscribe({
      next: (f) => bus.toClient.next(f),
      error: () => resolve(),
      complete: () => resolve(),
    });
  });
  const clientSubscription = recorded(bus.client$).subscribe(bus.toServer);
  await serverDone;
  const status = await io.server.exited;
  bus.toClient.complete();
  await bus.toClient.done;
  clientSubscription.unsubscribe();
  await io.recorder?.finish();
  return status;
}
