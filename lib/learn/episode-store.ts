/**
 * Episodes kept for several passes without keeping them as objects: a folder's sessions
 * are written into blocks of a few dozen episodes, each episode written as its JSON text
 * when that gives it back exactly (json-exact.ts: every episode read from a log but one
 * holding -0 or the like), else by V8's structured serialization (which gives back exactly
 * what went in: -0, key order, any string), and each block deflated. Each pass over the
 * store inflates one block at a time and rebuilds one episode at a time, so memory holds
 * the compressed blocks (a fraction of the logs' size), one block's bytes and one episode,
 * however many sessions there are.
 *
 * JSON text first, because V8's serializer and deserializer keep every object they wrote
 * or read reachable until a full collection finds their own wrapper dead: each episode
 * then outlives the young generation and fills the old one, tens of megabytes of garbage
 * at 10,000 sessions, on every thread that reads the store.
 */
import { deserialize, serialize } from "node:v8";
import { constants, deflateRawSync, inflateRawSync } from "node:zlib";
import type { Episode } from "../trace/index.js";
import { isJsonExact } from "./json-exact.js";

/** Episodes per block: enough for deflate to find the repeats between sessions. */
export const BLOCK_EPISODES = 64;

/** How an episode is written: its size (u32 LE), its form (one byte), its bytes. */
const HEAD = 5;
const JSON_TEXT = 0;
const V8_SERIALIZED = 1;

/** What the passes of the learner read: episodes in order, as often as needed. */
export interface Episodes extends Iterable<Episode> {
  readonly length: number;
}

/**
 * A store read a block at a time, so that two threads can share a pass over it: each takes
 * the next block from a shared counter (the episodes not yet in a block are the last one).
 */
export interface EpisodeBlocks {
  readonly blockCount: number;
  /** The episodes of block `i`, in order. */
  block(i: number): Iterable<Episode>;
}

/** A store's bytes as another thread receives them. */
export interface PackedEpisodes {
  /** The deflated blocks, in shared memory: sealed, never written again, so both threads read the same bytes. */
  blocks: Uint8Array[];
  /** The episodes not yet in a block, serialized and not deflated (a copy: the store keeps writing its own). */
  pending: Uint8Array;
  count: number;
}

/** The buffers of `packed` a message may move (`postMessage`'s transfer list): the pending bytes, not the shared blocks. */
export function movable(packed: PackedEpisodes): ArrayBuffer[] {
  return [...packed.blocks, packed.pending].map((b) => b.buffer).filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
}

/** `bytes` copied into shared memory. */
function shared(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(new SharedArrayBuffer(bytes.length));
  out.set(bytes);
  return out;
}

export class EpisodeStore implements Episodes, EpisodeBlocks {
  private readonly blocks: Uint8Array[] = [];
  /**
   * The episodes not yet in a block, serialized into one buffer reused for every block:
   * an episode's serialized bytes are copied at once and die young, rather than each
   * living (outside the heap) until the block is sealed, across the reads of many logs.
   */
  private pending = Buffer.allocUnsafe(1 << 16);
  private used = 0;
  private inBlock = 0;
  private count = 0;

  get length(): number {
    return this.count;
  }

  add(ep: Episode): void {
    if (isJsonExact(ep)) {
      const text = JSON.stringify(ep);
      // At most three bytes of UTF-8 for each UTF-16 unit.
      this.reserve(HEAD + 3 * text.length);
      const size = this.pending.write(text, this.used + HEAD, "utf8");
      this.head(size, JSON_TEXT);
    } else {
      const bytes = serialize(ep);
      this.reserve(HEAD + bytes.length);
      bytes.copy(this.pending, this.used + HEAD);
      this.head(bytes.length, V8_SERIALIZED);
    }
    this.count++;
    if (++this.inBlock === BLOCK_EPISODES) this.seal();
  }

  /** Room for `n` more bytes in the pending buffer. */
  private reserve(n: number): void {
    if (this.used + n <= this.pending.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.pending.length, this.used + n));
    this.pending.copy(grown, 0, 0, this.used);
    this.pending = grown;
  }

  /** Ends the episode written after `used`: its size and form before its bytes. */
  private head(size: number, form: number): void {
    this.pending.writeUInt32LE(size, this.used);
    this.pending[this.used + 4] = form;
    this.used += HEAD + size;
  }

  *[Symbol.iterator](): Iterator<Episode> {
    // One episode at a time from the inflated bytes: only the episode being read is objects.
    for (let i = 0; i < this.blockCount; i++) yield* this.block(i);
  }

  get blockCount(): number {
    return this.blocks.length + 1;
  }

  block(i: number): Iterable<Episode> {
    return episodesIn(i < this.blocks.length ? inflateRawSync(this.blocks[i]!) : Buffer.from(this.pending.subarray(0, this.used)));
  }

  /** The store's bytes, for a thread that reads the same episodes ({@link PackedStore}): its blocks shared, not copied. */
  packed(): PackedEpisodes {
    return { blocks: [...this.blocks], pending: Uint8Array.from(this.pending.subarray(0, this.used)), count: this.count };
  }

  /**
   * Another store's episodes after these, as if added here one by one: this store must end
   * on a whole block (its count a multiple of {@link BLOCK_EPISODES}).
   */
  append(other: PackedEpisodes): void {
    if (this.inBlock !== 0) throw new Error("a store is appended to only after a whole block");
    for (const b of other.blocks) this.blocks.push(b.buffer instanceof SharedArrayBuffer ? b : shared(b));
    this.pending = Buffer.alloc(Math.max(1 << 16, other.pending.length));
    this.pending.set(other.pending);
    this.used = other.pending.length;
    this.inBlock = other.count % BLOCK_EPISODES;
    this.count += other.count;
  }

  /** Every episode through `f`, as an array (holds them all: for the readers that need that). */
  map<T>(f: (ep: Episode, i: number) => T): T[] {
    const out: T[] = [];
    for (const ep of this) out.push(f(ep, out.length));
    return out;
  }

  /** The pending episodes as one block (each one's size, form and bytes), deflated. */
  private seal(): void {
    this.blocks.push(shared(deflateRawSync(this.pending.subarray(0, this.used), { level: constants.Z_BEST_SPEED })));
    this.used = 0;
    this.inBlock = 0;
  }
}

/** The episodes of another thread's store, read in passes as that store reads them. */
export class PackedStore implements Episodes, EpisodeBlocks {
  constructor(private readonly packed: PackedEpisodes) {}

  get length(): number {
    return this.packed.count;
  }

  get blockCount(): number {
    return this.packed.blocks.length + 1;
  }

  block(i: number): Iterable<Episode> {
    const { blocks, pending } = this.packed;
    return episodesIn(i < blocks.length ? inflateRawSync(blocks[i]!) : Buffer.from(pending));
  }

  *[Symbol.iterator](): Iterator<Episode> {
    for (let i = 0; i < this.blockCount; i++) yield* this.block(i);
  }
}

function* episodesIn(bytes: Buffer): Generator<Episode> {
  for (let at = 0; at < bytes.length; ) {
    const size = bytes.readUInt32LE(at);
    const from = at + HEAD;
    yield (bytes[at + 4] === JSON_TEXT ? JSON.parse(bytes.toString("utf8", from, from + size)) : deserialize(bytes.subarray(from, from + size))) as Episode;
    at = from + size;
  }
}

/** `episodes` with each one through `f` as it is read: a pass over them holds one at a time. */
export function mapEpisodes(episodes: Episodes, f: (ep: Episode) => Episode): Episodes {
  return {
    length: episodes.length,
    *[Symbol.iterator]() {
      for (const ep of episodes) yield f(ep);
    },
  };
}
