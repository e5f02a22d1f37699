import { createParser, type EventSourceParser } from "eventsource-parser";

/**
 * An event stream read as it arrives, on `eventsource-parser`:
 * comments and unknown fields are skipped, `data` lines of one event are joined with `\n`,
 * and the event id sticks to later events until another one is given (it is what a
 * reconnection sends as `Last-Event-ID`). `retry` is kept for the caller to honour. At the
 * end of the stream whatever data is left is dispatched too, so a server that closes the
 * stream without a final blank line does not lose its last message.
 */
export class SseReader {
  /** The last event id seen on this stream, if any. */
  lastEventId: string | undefined;
  /** The server's last `retry` (ms), if it gave one. */
  retryMs: number | undefined;

  private readonly parser: EventSourceParser;
  private readonly decoder = new TextDecoder("utf-8");

  /** `onEvent` gets each event's data (possibly empty: a priming event) and its id. */
  constructor(onEvent: (data: string, id: string | undefined) => void) {
    this.parser = createParser({
      onEvent: (event) => {
        if (event.id !== undefined) this.lastEventId = event.id;
        onEvent(event.data, this.lastEventId);
      },
      onRetry: (ms) => {
        this.retryMs = ms;
      },
    });
  }

  feed(chunk: Buffer): void {
    this.parser.feed(this.decoder.decode(chunk, { stream: true }));
  }

  /** The stream ended (or broke): finish a cut-off line and dispatch what is left. */
  end(): void {
    const rest = this.decoder.decode();
    this.parser.feed(`${rest}\n\n`);
  }
}
