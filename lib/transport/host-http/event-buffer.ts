/** One event as sent on a session's stream, kept for a host that comes back for it. */
export interface BufferedEvent {
  stream: number;
  seq: number;
  data: string;
}

/** How much of a session's event history is kept for `Last-Event-ID`: whichever bound comes first. */
export const REPLAY_EVENTS = 1000;
export const REPLAY_BYTES = 4 << 20;

/**
 * A session's recent events, for resumption. Event ids are `<stream>-<seq>`: unique in the
 * session (seq counts every event) and naming their stream, so a host that reconnects with
 * `Last-Event-ID` is given what it missed of that stream only. Bounded: the oldest events go
 * first once either bound is passed.
 */
export class EventBuffer {
  private readonly events: BufferedEvent[] = [];
  private head = 0;
  private bytes = 0;
  private seq = 0;

  constructor(
    private readonly maxEvents = REPLAY_EVENTS,
    private readonly maxBytes = REPLAY_BYTES,
  ) {}

  /** Keeps an event and returns its id. */
  add(stream: number, data: string): string {
    const e = { stream, seq: ++this.seq, data };
    this.events.push(e);
    this.bytes += data.length;
    while (this.events.length - this.head > this.maxEvents || (this.bytes > this.maxBytes && this.events.length - this.head > 1)) {
      this.bytes -= this.events[this.head]!.data.length;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events.splice(0, this.head);
      this.head = 0;
    }
    return eventId(e);
  }

  /** The kept events of `stream` after `seq`, in order. */
  after(stream: number, seq: number): BufferedEvent[] {
    const out: BufferedEvent[] = [];
    for (let i = this.head; i < this.events.length; i++) {
      const e = this.events[i]!;
      if (e.stream === stream && e.seq > seq) out.push(e);
    }
    return out;
  }
}

export const eventId = (e: { stream: number; seq: number }) => `${e.stream}-${e.seq}`;

/** Reads `Last-Event-ID`; undefined when it is not one of ours. */
export function parseEventId(text: string): { stream: number; seq: number } | undefined {
  const m = /^(\d{1,9})-(\d{1,15})$/.exec(text.trim());
  return m ? { stream: Number(m[1]), seq: Number(m[2]) } : undefined;
}
