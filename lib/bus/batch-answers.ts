import { idKeyOfText } from "../protocol/id-key.js";
import type { WireMessage } from "../protocol/line-check.js";
import { scanWire } from "../protocol/wire-scan.js";

interface PendingBatch {
  /** The batch's request ids, in the host's order, by key. */
  readonly order: readonly string[];
  /** Each id's answer text, once it came (from the server's array or from the proxy). */
  readonly answers: Map<string, string>;
  /** The server's array lines that answered part of the batch. */
  readonly serverLines: Buffer[];
  /** Whether the proxy answered any of it (a refusal, a commit report). */
  proxyAnswered: boolean;
  /** Elements of the server's arrays that answer no request of the batch: kept, never dropped. */
  readonly extras: string[];
}

/**
 * One batch, one answer. When the proxy answers some requests of a host's batch itself (a
 * refusal, a commit) and the server the rest, the host must still get a single batch
 * response, as JSON-RPC says: the answers of each batch are held until every request has
 * one, then sent as one array in the batch's order. A batch the proxy answered none of gets
 * the server's own line, byte for byte.
 */
export class BatchAnswers {
  private readonly byId = new Map<string, PendingBatch>();

  get pending(): boolean {
    return this.byId.size > 0;
  }

  /** A host batch on its way: its requests (messages with an id and a method) await answers. */
  hostBatch(messages: readonly WireMessage[]): void {
    const order = messages.filter((m) => m.method !== undefined && m.idText !== undefined).map((m) => idKeyOfText(m.idText!));
    if (order.length === 0) return;
    const batch: PendingBatch = { order, answers: new Map(), serverLines: [], proxyAnswered: false, extras: [] };
    for (const key of order) this.byId.set(key, batch);
  }

  /**
   * A line the proxy composed for the host: held (true) when it answers a request of a
   * pending batch; what is then ready is handed to `send`.
   */
  fromProxy(bytes: Buffer, send: (line: Buffer) => void): boolean {
    const text = bytes.toString("utf8").replace(/\n$/, "");
    const key = idKeyOf(text);
    const batch = key === undefined ? undefined : this.byId.get(key);
    if (!batch) return false;
    batch.proxyAnswered = true;
    batch.answers.set(key!, text);
    this.settle(batch, send);
    return true;
  }

  /**
   * A line from the server on its way to the host: an array answering part of a pending
   * batch is held (true); a single answer goes on, counted as answered.
   */
  fromServer(bytes: Buffer, send: (line: Buffer) => void): boolean {
    const text = bytes.toString("utf8");
    const scan = scanWire(text.replace(/\r?\n$/, ""));
    if (!scan.batch) {
      const key = scan.parts[0]?.idTexts[0];
      if ((key === undefined || key === "null") && this.byId.size > 0) {
        // An error with no id while a batch waits: the server's answer to the batch as a
        // whole (one that takes no batches says so this way). It joins the oldest batch.
        const oldest = this.byId.values().next().value!;
        oldest.extras.push(text.replace(/\r?\n$/, ""));
        this.release(oldest, send);
        return true;
      }
      const batch = key === undefined ? undefined : this.byId.get(idKeyOfText(key));
      if (batch && key !== undefined) {
        batch.answers.set(idKeyOfText(key), "");
        this.settle(batch, send);
      }
      return false;
    }
    let held: PendingBatch | undefined;
    const extras: string[] = [];
    for (const part of scan.parts) {
      const idText = part.idTexts[0]!;
      const own = text.slice(part.offset, part.offset + part.length);
      const batch = idText === undefined ? undefined : this.byId.get(idKeyOfText(idText));
      if (!batch) extras.push(own);
      else {
        held = batch;
        batch.answers.set(idKeyOfText(idText), own);
      }
    }
    if (!held) return false;
    held.extras.push(...extras);
    held.serverLines.push(bytes);
    this.settle(held, send);
    return true;
  }

  /** The session ends: what is held goes out as it is. */
  flush(send: (line: Buffer) => void): void {
    for (const batch of new Set(this.byId.values())) this.release(batch, send);
  }

  private settle(batch: PendingBatch, send: (line: Buffer) => void): void {
    if (batch.answers.size === batch.order.length) this.release(batch, send);
  }

  private release(batch: PendingBatch, send: (line: Buffer) => void): void {
    for (const key of batch.order) this.byId.delete(key);
    if (!batch.proxyAnswered && batch.serverLines.length === 1) {
      send(batch.serverLines[0]!);
      return;
    }
    // Answers that went out on their own (single lines) are "" here.
    const texts = batch.order.map((k) => batch.answers.get(k)).filter((t): t is string => t !== undefined && t !== "");
    texts.push(...batch.extras);
    if (texts.length > 0) send(Buffer.from(`[${texts.join(",")}]\n`));
  }
}

function idKeyOf(text: string): string | undefined {
  const idText = scanWire(text).parts[0]?.idTexts[0];
  return idText === undefined ? undefined : idKeyOfText(idText);
}
