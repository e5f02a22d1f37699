import { Readable } from "node:stream";

/**
 * A child's stdout, read from the moment the child is spawned and held until the session
 * reads it.
 *
 * Node resumes every unread stdio stream of a child the moment the child exits, which
 * throws away what the stream holds and emits its `end` before anyone listens. Active
 * mode subscribes only after its plugins are set up, so a server that dies within a few
 * milliseconds (`sh -c 'missing-program'`, exit 127) would leave the session waiting for
 * an `end` that already happened. Reading at once avoids that; the socket is paused
 * whenever this stream's buffer is full, so an unread server still cannot fill memory.
 */
export class HeldOutput extends Readable {
  constructor(private readonly source: Readable) {
    super();
    source.on("data", (chunk: Buffer) => {
      if (!this.push(chunk)) source.pause();
    });
    source.once("end", () => this.push(null));
    source.once("error", (err: Error) => this.destroy(err));
  }

  override _read(): void {
    this.source.resume();
  }
}
