/**
 * The writer thread's way to the log (entry-out.ts): whatever mix of short text, short and
 * long runs of bytes and flushes it is given, the file holds exactly those bytes in that
 * order, whether a run was gathered in the stage or written from where it lies.
 */
import assert from "node:assert/strict";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { EntryOut } from "../../lib/record/entry-out.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";

type Step = { text: string } | { bytes: number; fill: number } | { end: true } | { flush: true };

describe("the writer thread's output buffer", () => {
  after(cleanTemp);

  it("writes every piece in the order given, gathered or written directly (property)", () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ text: fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, "a")) }),
      // Either side of the direct-write size (32 KiB) and of the stage's (256 KiB).
      fc.record({ bytes: fc.oneof(fc.integer({ min: 0, max: 2048 }), fc.integer({ min: 30_000, max: 70_000 }), fc.integer({ min: 250_000, max: 270_000 })), fill: fc.integer({ min: 0x21, max: 0x7e }) }),
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
            out.bytes(b);
            want.push(b);
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
