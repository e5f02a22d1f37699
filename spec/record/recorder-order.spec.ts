/**
 * The recorder queues what it is fed and hands it to the writer's ring after the turn's
 * writes (recorder.ts). Whatever the mix of whole lines, lines in pieces and lines the proxy
 * composed, from both sides, and however the feeding is spread over event-loop turns, the
 * log holds one entry a line, in the order each line was complete.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { frame, type Sender } from "../../lib/bus/frame.js";
import { LogWriter } from "../../lib/record/log-writer.js";
import { Recorder } from "../../lib/record/recorder.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";

type Step = { from: Sender; how: "whole" | "pieces" | "composed" } | { turn: true };

describe("the recorder's order", () => {
  after(cleanTemp);

  it("logs each line once, in the order it was complete, across turns (property)", async () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ from: fc.constantFrom<Sender>("client", "server"), how: fc.constantFrom<"whole" | "pieces" | "composed">("whole", "pieces", "composed") }),
      fc.constant({ turn: true as const }),
    );
    const dir = tempDir();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const session = `O${n++}`;
        const r = new Recorder(LogWriter.create(dir, session, {}));
        const want: string[] = [];
        // A sender's line in pieces is finished by the next step from that sender, or at the end.
        const open = new Map<Sender, number>();
        let seq = 0;
        const finishOpen = (from: Sender) => {
          const id = open.get(from);
          if (id === undefined) return;
          open.delete(from);
          r.record(frame(from, id, Buffer.from(`${id}}\n`)));
          want.push(`${from} ${id}`);
        };
        for (const s of steps) {
          if ("turn" in s) {
            await new Promise((resolve) => setImmediate(resolve));
            continue;
          }
          finishOpen(s.from);
          const id = seq++;
          const text = `{"seq":${id}}\n`;
          if (s.how === "whole") {
            r.record(frame(s.from, id, Buffer.from(text)));
            want.push(`${s.from} ${id}`);
          } else if (s.how === "composed") {
            r.line(s.from, id, Buffer.from(text));
            want.push(`${s.from} ${id}`);
          } else {
            r.record(frame(s.from, id, Buffer.from(`{"seq":`), false));
            open.set(s.from, id);
          }
        }
        for (const from of [...open.keys()]) finishOpen(from);
        await r.finish();
        const got = readFileSync(join(dir, `${session}.jsonl`), "utf8")
          .trim()
          .split("\n")
          .slice(1)
          .map((l) => {
            const e = JSON.parse(l) as { from: string; message: { seq: number } };
            return `${e.from} ${e.message.seq}`;
          });
        assert.deepEqual(got, want);
      }),
      { numRuns: 40 },
    );
  });
});
