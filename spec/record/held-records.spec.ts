/**
 * Records the ring has no room for wait for room instead of going at once to a buffer of
 * their own (held-records.ts). Whatever the sizes, and whenever the writer gives room back
 * or the wait runs out, the writer must get every record once, in the order handed over: a
 * buffer of its own is read after everything already in the ring, so the order the writer
 * sees is the order of the ring's appends and the buffers sent, one after the other. A
 * fresh buffer is taken only when the wait ran out or too much waits.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { HeldRecords, type HeldRecord } from "../../lib/record/held-records.js";

const ROOM = 64;
const HOLD_BYTES = 100;

describe("records waiting for the ring", () => {
  it("reach the writer once each and in order, and take a buffer of their own only when the wait runs out or too much waits (property)", () => {
    const step = fc.oneof(
      fc.record({ add: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ free: fc.integer({ min: 0, max: ROOM }) }),
      fc.constant({ timeout: true }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        // A ring of ROOM bytes the writer empties at random; its records are `tMs` numbers.
        let used = 0;
        const seen: number[] = [];
        let mayGiveUp = false;
        const held = new HeldRecords({
          append: (r) => {
            if (used + r.length > ROOM) return false;
            used += r.length;
            seen.push(r.tMs);
            return true;
          },
          sendOwn: (records: HeldRecord[]) => {
            assert.ok(mayGiveUp, "a buffer of its own before the wait ran out");
            assert.ok(records.length > 0);
            for (const r of records) seen.push(r.tMs);
          },
          holdBytes: HOLD_BYTES,
        });
        const lengths: number[] = [];
        // What waits: what was handed over and the writer has not seen (seen is a prefix, checked below).
        const waitingBytes = () => lengths.slice(seen.length).reduce((a, b) => a + b, 0);
        try {
          for (const s of steps) {
            if ("add" in s) {
              // Too much waiting is a reason to give up: this add may.
              mayGiveUp = waitingBytes() + s.add >= HOLD_BYTES;
              held.add({ tMs: lengths.length, flags: 0, parts: Buffer.alloc(s.add), length: s.add });
              lengths.push(s.add);
              mayGiveUp = false;
            } else if ("free" in s) {
              used = Math.max(0, used - s.free);
            } else {
              mayGiveUp = true;
              held.giveUp();
              mayGiveUp = false;
              assert.equal(held.waiting, false);
            }
            assert.equal(held.waiting, seen.length < lengths.length);
          }
          mayGiveUp = true;
          held.giveUp();
        } finally {
          held.drop();
        }
        assert.deepEqual(seen, Array.from({ length: lengths.length }, (_, i) => i));
        assert.equal(held.waiting, false);
      }),
      { numRuns: 300 },
    );
  });

  it("gives up on its own after the wait, in a buffer of its own", async () => {
    const sent: number[][] = [];
    const held = new HeldRecords({ append: () => false, sendOwn: (rs) => sent.push(rs.map((r) => r.tMs)), holdMs: 5 });
    held.add({ tMs: 1, flags: 0, parts: Buffer.alloc(4), length: 4 });
    held.add({ tMs: 2, flags: 0, parts: Buffer.alloc(4), length: 4 });
    assert.deepEqual(sent, []);
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(sent, [[1, 2]]);
    assert.equal(held.waiting, false);
  });
});
