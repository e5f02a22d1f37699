import type { Frame, Sender } from "../bus/frame.js";
import type { RecordSink } from "../bus/record-port.js";
import { classifyLine } from "../record/log-entry.js";
import type { Json } from "../trace/json.js";
import type { LogEntry } from "../trace/log-types.js";

/**
 * A record sink that keeps the session log in memory: each entry as the recorder writes it
 * (`message` when the line is JSON that reads back, else `raw`), with the same rule.
 */
export class MemoryRecorder implements RecordSink {
  readonly entries: LogEntry[] = [];
  private readonly partial = new Map<Sender, Buffer[]>();
  private lastT = 0;

  readonly record = (f: Frame): void => {
    const held = this.partial.get(f.from) ?? [];
    held.push(f.bytes);
    if (!f.end) {
      this.partial.set(f.from, held);
      return;
    }
    this.partial.delete(f.from);
    this.line(f.from, f.tMs, Buffer.concat(held));
  };

  line(from: Sender, tMs: number, bytes: Buffer, raw = false): void {
    this.lastT = Math.max(this.lastT, tMs);
    const c = classifyLine(bytes, raw);
    this.entries.push(
      c.kind === "message"
        ? { t_ms: this.lastT, from, message: JSON.parse(c.json.toString("utf8")) as Json }
        : { t_ms: this.lastT, from, raw: c.text },
    );
  }

  finish(): Promise<void> {
    for (const [from, pieces] of this.partial) this.line(from, this.lastT, Buffer.concat(pieces));
    this.partial.clear();
    return Promise.resolve();
  }
}
