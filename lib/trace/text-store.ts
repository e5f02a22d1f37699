/**
 * A growing text that can be searched for a substring: turn inference's "known" and
 * "returned" texts (see new-values.ts). Appending is cheap: pieces are only referenced (JSON values are
 * not even serialized) until a search needs the text, which is rare (only when a call
 * passes a value its turn returned). Searched text is kept in chunks, so a long session
 * never runs into V8's string length limit, and a match that straddles two chunks is
 * still found. Chunks are merged as they grow (like a log-structured merge), so the copying
 * stays O(n log n) however often the text is searched.
 *
 * A store made with a `limit` keeps only about the latest `limit` characters (never fewer):
 * a live session that keeps no history bounds its memory so (docs/session-memory.md). Its
 * pieces are written out every {@link SETTLE_PIECES} appends, and whole chunks of the
 * oldest text dropped, so it holds at most `limit` + a quarter of it.
 */
import { jsonText, type Json } from "./json.js";

const CHUNK_CHARS = 1 << 24;
/** How many pieces a store with a limit takes before it writes them out and trims. */
export const SETTLE_PIECES = 4096;

export class TextStore {
  /** Pieces not yet searched: a string is text; an object or array stands for its JSON text. */
  private pieces: Json[] = [];
  /** The searched text so far, in order; no chunk is longer than the one before it. */
  private chunks: string[] = [];
  private readonly chunkChars: number;

  constructor(private readonly limit = Number.POSITIVE_INFINITY) {
    this.chunkChars = Math.min(CHUNK_CHARS, Math.max(1, Math.floor(limit / 4)));
  }

  append(text: string): void {
    if (text.length > 0) this.pieces.push(text);
    this.bound();
  }

  /** Append `value`'s compact JSON text (keys sorted), written only if a search needs it. */
  appendJson(value: Json): void {
    if (typeof value === "object" && value !== null) this.pieces.push(value);
    else this.pieces.push(jsonText(value));
    this.bound();
  }

  /** Append everything `other` holds. */
  appendStore(other: TextStore): void {
    for (const c of other.chunks) this.pieces.push(c);
    for (const p of other.pieces) this.pieces.push(p);
    this.bound();
  }

  /** With a limit: every so often, the pieces written out (and so the oldest chunks dropped). */
  private bound(): void {
    if (this.limit === Number.POSITIVE_INFINITY || this.pieces.length < SETTLE_PIECES) return;
    this.settle();
  }

  /** With a limit, the oldest whole chunks dropped while the rest still holds `limit` characters. */
  private trim(): void {
    if (this.limit === Number.POSITIVE_INFINITY) return;
    let total = this.chunks.reduce((n, c) => n + c.length, 0);
    while (this.chunks.length > 1 && total - this.chunks[0]!.length >= this.limit) total -= this.chunks.shift()!.length;
  }

  clear(): void {
    this.pieces = [];
    this.chunks = [];
  }

  get length(): number {
    this.settle();
    return this.chunks.reduce((n, c) => n + c.length, 0);
  }

  /** Whether `v` occurs in the text (the empty string always does). */
  includes(v: string): boolean {
    this.settle();
    if (this.chunks.length <= 1) return (this.chunks[0] ?? "").includes(v);
    const overlap = v.length - 1;
    // The last `overlap` characters of the text before the chunk being searched.
    let before = "";
    for (const chunk of this.chunks) {
      if (chunk.includes(v)) return true;
      if (overlap > 0 && (before + chunk.slice(0, overlap)).includes(v)) return true;
      if (overlap > 0) before = chunk.length >= overlap ? chunk.slice(-overlap) : (before + chunk).slice(-overlap);
    }
    return false;
  }

  toString(): string {
    this.settle();
    return this.chunks.join("");
  }

  /**
   * Turn the pending pieces into searchable chunks, and trim a store with a limit: a
   * search settles too, so a store searched more often than every SETTLE_PIECES appends
   * must trim here or it would never be bounded.
   */
  private settle(): void {
    if (this.pieces.length === 0) return;
    let parts: string[] = [];
    let size = 0;
    for (let i = 0; i < this.pieces.length; i++) {
      const p = this.pieces[i]!;
      const text = typeof p === "string" ? p : jsonText(p);
      parts.push(text);
      size += text.length;
      if (size >= this.chunkChars) {
        this.add(parts.join(""));
        parts = [];
        size = 0;
      }
    }
    if (parts.length > 0) this.add(parts.join(""));
    this.pieces = [];
    this.trim();
  }

  private add(chunk: string): void {
    let s = chunk;
    for (;;) {
      const last = this.chunks[this.chunks.length - 1];
      if (last === undefined || last.length > s.length || last.length + s.length > this.chunkChars) break;
      this.chunks.pop();
      s = [last, s].join("");
    }
    this.chunks.push(s);
  }
}
