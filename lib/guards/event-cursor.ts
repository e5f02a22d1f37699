import type { Episode, EpisodeEvent, ToolCall } from "../trace/episode-types.js";

/**
 * Walks a growing Episode once: each call returns only what was added since the last one.
 * A turn's event can gain calls after it was first seen (parallel calls join it), so the
 * last turn's calls are followed by count. Together with incremental facts this keeps a
 * guard decision's cost flat over a long session.
 */
export class EventCursor {
  private next = 0;
  private turnCallsSeen = 0;

  constructor(private readonly episode: () => Episode) {}

  forEachNew(onEvent: (e: EpisodeEvent) => void, onCall: (c: ToolCall) => void): void {
    const events = this.episode().events;
    // Calls that joined the turn we were last on.
    const current = this.next > 0 ? events[this.next - 1] : undefined;
    if (current?.kind === "assistant") this.takeCalls(current.calls, onCall);
    for (; this.next < events.length; this.next++) {
      const e = events[this.next]!;
      if (e.kind === "assistant") {
        this.turnCallsSeen = 0;
        if (e.text !== null && e.calls.length === 0) onEvent(e);
        this.takeCalls(e.calls, onCall);
      } else {
        onEvent(e);
      }
    }
  }

  private takeCalls(calls: ToolCall[], onCall: (c: ToolCall) => void): void {
    for (; this.turnCallsSeen < calls.length; this.turnCallsSeen++) onCall(calls[this.turnCallsSeen]!);
  }
}
