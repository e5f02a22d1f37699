import type { Sender } from "../bus/frame.js";

/**
 * The start of a `message` entry, `{"t_ms":T,"from":"F","message":`, as bytes. Lines come
 * many to a millisecond, so each sender's head is made once per time it is seen at rather
 * than formatted for every entry.
 */
export class EntryHeads {
  private readonly last = new Map<Sender, { tMs: number; head: Buffer }>();

  of(tMs: number, from: Sender): Buffer {
    const had = this.last.get(from);
    if (had?.tMs === tMs) return had.head;
    const head = Buffer.from(`{"t_ms":${tMs},"from":"${from}","message":`, "latin1");
    this.last.set(from, { tMs, head });
    return head;
  }
}
