/**
 * A sink writes what it is given, in order, byte for byte, however the bytes come: slices
 * of one read (merged back into one write), lines composed between them (a turn's runs are
 * then copied into one buffer, or, past a megabyte, written one by one, corked). Fast-check
 * over turns of slices and composed lines, small and large; what reaches the writable is
 * compared with the bytes given, and a turn's runs take one write when they are small.
 */
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import fc from "fast-check";
import { WriteSink } from "../../lib/bus/write-sink.js";
import { frame, readLine } from "../../lib/bus/frame.js";

/** A writable that keeps each chunk it is handed (writev counts each chunk it is handed too). */
function keeping(): Writable & { chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const w = new Writable({
    write(chunk: Buffer, _e, cb) {
      chunks.push(Buffer.from(chunk));
      cb();
    },
    writev(list, cb) {
      for (const { chunk } of list) chunks.push(Buffer.from(chunk as Buffer));
      cb();
    },
  });
  return Object.assign(w, { chunks });
}

const piece = fc.oneof(
  // A run of slices of one read: `n` lines of the read, cut where the line ends fall.
  fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.integer({ min: 1, max: 4 })).map(([bytes, n]) => ({ kind: "read" as const, bytes: Buffer.from(bytes), n })),
  fc.uint8Array({ minLength: 1, maxLength: 100 }).map((bytes) => ({ kind: "composed" as const, bytes: Buffer.from(bytes), n: 1 })),
  fc.constant({ kind: "composed" as const, bytes: Buffer.alloc(700_000, 0x61), n: 1 }),
);

describe("WriteSink", function () {
  it("writes the bytes of each turn in order, small turns in one write (100 runs of up to 5 turns)", async function () {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(piece, { maxLength: 6 }), { maxLength: 5 }), async (turns) => {
        const w = keeping();
        const sink = new WriteSink(w);
        const given: Buffer[] = [];
        for (const turn of turns) {
          const before = w.chunks.length;
          let bytes = 0;
          for (const p of turn) {
            const size = Math.ceil(p.bytes.length / p.n);
            for (let o = 0; o < p.bytes.length; o += size) sink.write(p.bytes.subarray(o, o + size));
            given.push(p.bytes);
            bytes += p.bytes.length;
          }
          await new Promise((resolve) => setImmediate(resolve));
          if (bytes > 0 && bytes <= 1 << 20) assert.equal(w.chunks.length - before, 1, "one write for the turn");
        }
        sink.complete();
        await sink.done;
        assert.deepEqual(Buffer.concat(w.chunks), Buffer.concat(given));
      }),
      { numRuns: 100, seed: 20261203 },
    );
  });

  it("merges only slices that follow each other in one read's memory (200 turns of slices of two reads)", async function () {
    // Two reads of one size: a slice of the other at the offset where a run ends is no continuation of it.
    const reads = [Buffer.from(Array.from({ length: 64 }, (_, i) => i)), Buffer.from(Array.from({ length: 64 }, (_, i) => 100 + i))];
    const slice = fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 63 }), fc.integer({ min: 1, max: 8 })).map(([r, at, n]) => reads[r]!.subarray(at, Math.min(64, at + n)));
    await fc.assert(
      fc.asyncProperty(fc.array(slice, { maxLength: 12 }), async (slices) => {
        const w = keeping();
        const sink = new WriteSink(w);
        for (const s of slices) sink.write(s);
        sink.complete();
        await sink.done;
        assert.deepEqual(Buffer.concat(w.chunks), Buffer.concat(slices));
      }),
      { numRuns: 200, seed: 20261203 },
    );
  });

  it("merges the lines a source read by where they lie, among frames and bytes of the same reads (200 turns)", async function () {
    // Lines of two reads given as where they lie (`readLine`), the same bytes as frames of views
    // and as bytes: a line of the other read, or one that does not follow, starts a new run.
    const reads = [Buffer.from(Array.from({ length: 64 }, (_, i) => i)), Buffer.from(Array.from({ length: 64 }, (_, i) => 100 + i))];
    const given = fc
      .tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 63 }), fc.integer({ min: 1, max: 8 }), fc.constantFrom("line", "frame", "bytes"))
      .map(([r, at, n, how]) => ({ read: reads[r]!, start: at, stop: Math.min(64, at + n), how }));
    await fc.assert(
      fc.asyncProperty(fc.array(given, { maxLength: 12 }), fc.integer({ min: 0, max: 12 }), async (items, turnAt) => {
        const w = keeping();
        const sink = new WriteSink(w);
        for (let i = 0; i < items.length; i++) {
          const { read, start, stop, how } = items[i]!;
          if (how === "line") sink.next(readLine("server", 0, read, start, stop));
          else if (how === "frame") sink.next(frame("server", 0, read.subarray(start, stop)));
          else sink.write(read.subarray(start, stop));
          // Sometimes a turn ends among them.
          if (i === turnAt) await new Promise((resolve) => setImmediate(resolve));
        }
        sink.complete();
        await sink.done;
        assert.deepEqual(Buffer.concat(w.chunks), Buffer.concat(items.map((x) => x.read.subarray(x.start, x.stop))));
      }),
      { numRuns: 200, seed: 20261204 },
    );
  });

  it("writes nothing of a turn to a writable destroyed before the turn goes out, and fails nothing (100 runs)", async function () {
    // A sink no longer asks the writable at each line whether it was destroyed: it asks once, when the turn goes out.
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 6 }), fc.array(piece, { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 6 }), async (first, second, at) => {
        const w = keeping();
        const errors: Error[] = [];
        const sink = new WriteSink(w, { onWriteError: (e) => errors.push(e) });
        for (const p of first) sink.write(p.bytes);
        await new Promise((resolve) => setImmediate(resolve));
        const written = Buffer.concat(w.chunks);
        for (let i = 0; i < second.length; i++) {
          if (i === Math.min(at, second.length - 1)) w.destroy();
          sink.write(second[i]!.bytes);
        }
        await new Promise((resolve) => setImmediate(resolve));
        sink.complete();
        await sink.done;
        assert.deepEqual(Buffer.concat(w.chunks), written);
        assert.deepEqual(Buffer.concat(w.chunks), Buffer.concat(first.map((p) => p.bytes)));
        assert.deepEqual(errors, []);
      }),
      { numRuns: 100, seed: 20261203 },
    );
  });
});
