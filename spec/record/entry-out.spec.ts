/**
 * The writer thread's way to the log (entry-out.ts): whatever mix of short text, short and
 * long runs of bytes and flushes it is given, the file holds exactly those bytes in that
 * order, whether a run was gathered in the stage, written from where it lies at once, or
 * joined to the batch where it lies and written with it (one `writev`).
 */
import assert from "node:assert/strict";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { EntryOut } from "../../lib/record/entry-out.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";

type Step = { text: string } | { bytes: number; fill: number; lying: boolean } | { end: true } | { flush: true };

describe("the writer thread's output buffer", () => {
  after(cleanTemp);

  it("writes every piece in the order given, gathered, written directly or joined to the batch where it lies (property)", () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ text: fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, "a")) }),
      // Either side of the direct-write size (32 KiB) and of the stage's (256 KiB).
      fc.record({ bytes: fc.oneof(fc.integer({ min: 0, max: 2048 }), fc.integer({ min: 30_000, max: 70_000 }), fc.integer({ min: 250_000, max: 270_000 })), fill: fc.integer({ min: 0x21, max: 0x7e }), lying: fc.boolean() }),
      fc.constant({ end: true as const }),
      fc.constant({ flush: true as const }),
    );
    const dir = tempDir();
    let n = 0;
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const path = join(dir, `out-${n++}.jsonl`);
        const fd = openSync(path, "wx");
        const out = new EntryOut(fd);
        const want: Buffer[] = [];
        for (const s of steps) {
          if ("text" in s) {
            out.text(s.text);
            want.push(Buffer.from(s.text, "latin1"));
          } else if ("bytes" in s) {
            const b = Buffer.alloc(s.bytes, s.fill);
            if (s.lying) {
              // Kept as it is until the next flush, as the ring's lines are: the batch may write it from there.
              out.lying(b);
              want.push(b);
            } else {
              // The caller may reuse it at once (a spill file's copy buffer): changing it must not change the file.
              out.bytes(b);
              want.push(Buffer.from(b));
              b.fill(0x20);
            }
          } else if ("end" in s) {
            out.entryEnd();
            want.push(Buffer.from("}\n"));
          } else {
            out.flush();
          }
        }
        out.flush();
        closeSync(fd);
        assert.ok(readFileSync(path).equals(Buffer.concat(want)));
      }),
      { numRuns: 60 },
    );
  });
});
