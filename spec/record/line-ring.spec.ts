/**
 * The ring the proxy hands lines over in: whatever the sizes and however far the writer
 * lags, the writer reads every record the proxy put in, in order and unchanged, and the
 * proxy is refused room only when the writer still holds a good part of the ring (an empty
 * ring that started over at 0 has the room before the writer until the writer follows). Both sides run
 * here on one thread (the writer's reads interleaved with the proxy's appends at random),
 * since what is checked is the bookkeeping, not the thread.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { Records, recordSize, senderCode } from "../../lib/record/hand-over.js";
import { LineRing, RingReader, newSignal } from "../../lib/record/line-ring.js";

const SIZE = 4096;

/** A line of `length` bytes whose content says which it is. */
function lineOf(seq: number, length: number): Buffer {
  const b = Buffer.alloc(length);
  for (let i = 0; i < length; i++) b[i] = (seq * 31 + i) & 0xff;
  return b;
}

describe("the hand-over ring", () => {
  it("gives the writer every line in order, unchanged, and is full only when the writer holds a quarter of it (property)", () => {
    const step = fc.oneof(
      fc.record({ append: fc.integer({ min: 0, max: SIZE / 8 }), pieces: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ read: fc.integer({ min: 0, max: 6 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const ring = new LineRing(SIZE);
        const reader = new RingReader(ring.records, ring.control);
        const sent: { seq: number; length: number }[] = [];
        let seq = 0;
        let taken = 0;
        let held = 0;
        for (const s of steps) {
          if ("append" in s) {
            const line = lineOf(seq, s.append);
            // A line read in pieces is copied in as one.
            const cut = Math.floor(s.append / s.pieces);
            const parts = s.pieces === 1 ? line : [line.subarray(0, cut), line.subarray(cut)];
            if (ring.append(seq, senderCode("server"), parts, s.append)) {
              sent.push({ seq, length: s.append });
              held += recordSize(s.append);
            } else {
              // Refused only when what the writer still holds, plus what a wrap may skip, leaves no room.
              assert.ok(held + 2 * recordSize(s.append) > SIZE / 4, `refused ${s.append} bytes with ${held} held`);
            }
            seq++;
          } else {
            // The writer takes up to `read` records, as far as the proxy has put them.
            const until = reader.tail();
            let pos = reader.start;
            for (let k = 0, at = reader.record(pos, until); k < s.read && at >= 0; k++, at = reader.record(pos, until)) {
              const want = sent[taken++]!;
              assert.equal(reader.mem.tMs(at), want.seq);
              assert.equal(reader.mem.from(at), "server");
              assert.deepEqual(reader.mem.line(at), lineOf(want.seq, want.length));
              held -= recordSize(want.length);
              pos = reader.after(at);
            }
            reader.release(pos);
          }
        }
        // Whatever is left is all there, in order.
        const until = reader.tail();
        for (let at = reader.record(reader.start, until); at >= 0; at = reader.record(reader.after(at), until)) {
          assert.equal(reader.mem.tMs(at), sent[taken++]!.seq);
        }
        assert.equal(taken, sent.length, "every record appended was read");
      }),
      { numRuns: 300 },
    );
  });

  it("takes a line of up to half its size again once the writer is done with it, wherever the writer stopped", () => {
    const ring = new LineRing(1024);
    const reader = new RingReader(ring.records, ring.control);
    const big = Buffer.alloc(600, 1);
    assert.equal(ring.append(1, 0, big, big.length), true);
    assert.equal(ring.append(2, 0, big, big.length), false, "full: the caller uses a buffer of its own");
    const at = reader.record(reader.start, reader.tail());
    reader.release(reader.after(at));
    const half = Buffer.alloc(1024 / 2 - 16, 2);
    assert.equal(ring.append(3, 0, half, half.length), true);
    const next = reader.record(reader.start, reader.tail());
    assert.equal(new Records(ring.records).tMs(next), 3);
    assert.deepEqual(reader.mem.line(next), half);
  });

  it("wakes a napping writer only once a quarter of the ring waits for it (property)", () => {
    // The writer thread's words (line-ring.ts): STATE is the second, NAPPING is 1, AWAKE 0.
    const STATE = 1;
    const NAPPING = 1;
    const step = fc.oneof(
      fc.record({ append: fc.integer({ min: 0, max: SIZE / 8 }) }),
      fc.record({ read: fc.integer({ min: 0, max: 6 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        const signal = newSignal();
        const words = new Int32Array(signal);
        const ring = new LineRing(SIZE, signal);
        const reader = new RingReader(ring.records, ring.control);
        const held: number[] = [];
        for (const s of steps) {
          if ("append" in s) {
            Atomics.store(words, STATE, NAPPING);
            if (!ring.append(0, senderCode("client"), Buffer.alloc(s.append, 0x61), s.append)) continue;
            held.push(recordSize(s.append));
            const waiting = held.reduce((a, b) => a + b, 0);
            const woken = Atomics.load(words, STATE) !== NAPPING;
            if (waiting >= SIZE / 4) assert.ok(woken, `not woken with ${waiting} bytes waiting`);
            // What a wrap skipped counts too: never more than one record's room.
            if (woken) assert.ok(waiting + recordSize(SIZE / 8) >= SIZE / 4, `woken with ${waiting} bytes waiting`);
          } else {
            const until = reader.tail();
            let pos = reader.start;
            for (let k = 0, at = reader.record(pos, until); k < s.read && at >= 0; k++, at = reader.record(pos, until)) {
              held.shift();
              pos = reader.after(at);
            }
            reader.release(pos);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
