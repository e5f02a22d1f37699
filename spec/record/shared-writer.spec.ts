/**
 * Every log of a process is written by one writer thread (writer-thread.ts). Differential,
 * fast-check: a few sessions' frames handed over interleaved, to logs open at once, give
 * each log byte for byte the file that session gives written alone. The frames mix JSON
 * and raw lines, both senders, lines split across frames, and long lines that go to the
 * thread in pieces (over a megabyte), so every path of the writer runs with others between.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { LogWriter } from "../../lib/record/log-writer.js";
import { Recorder } from "../../lib/record/recorder.js";
import { frame } from "../../lib/bus/frame.js";
import type { Sender } from "../../lib/bus/frame.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";

interface Part {
  from: Sender;
  bytes: Buffer;
  end: boolean;
}

/** Over twice the recorder's piece size: split in two, its first half goes to the thread as a piece. */
const LONG = Buffer.alloc(2200 * 1024, 0x78);

/** One line as the frames it arrives in: JSON or not, whole or in two parts, sometimes over a megabyte. */
const line = fc.record({
  from: fc.constantFrom<Sender>("client", "server"),
  json: fc.boolean(),
  text: fc.string({ maxLength: 40 }),
  split: fc.boolean(),
  long: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
});

type Line = typeof line extends fc.Arbitrary<infer T> ? T : never;

function partsOf(l: Line): Part[] {
  const body = l.json ? JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: l.text } }) : `noise ${l.text}`;
  const bytes = l.long ? Buffer.concat([Buffer.from(body), LONG]) : Buffer.from(body);
  const whole = Buffer.concat([bytes, Buffer.from("\n")]);
  if (!l.split) return [{ from: l.from, bytes: whole, end: true }];
  const cut = Math.floor(whole.length / 2);
  return [
    { from: l.from, bytes: whole.subarray(0, cut), end: false },
    { from: l.from, bytes: whole.subarray(cut), end: true },
  ];
}

async function write(dir: string, sessions: Part[][], interleave: boolean): Promise<string[]> {
  const open = (s: number) => new Recorder(LogWriter.create(dir, `S${s}`, { stretto_mcp_log: 2, session: `S${s}` }));
  if (interleave) {
    const recorders = sessions.map((_, s) => open(s));
    const longest = Math.max(...sessions.map((p) => p.length));
    for (let k = 0; k < longest; k++) {
      sessions.forEach((parts, s) => {
        const p = parts[k];
        if (p) recorders[s]!.record(frame(p.from, k, p.bytes, p.end));
      });
      // While a line is still arriving, long enough for the thread to take what came so far
      // (it looks every 10 ms), so one log's piece is written with another's between.
      if (sessions.some((parts) => parts[k]?.end === false)) await new Promise((r) => setTimeout(r, 12));
      else if (k % 3 === 2) await new Promise((r) => setImmediate(r));
    }
    await Promise.all(recorders.map((r) => r.finish()));
  } else {
    // One session at a time: each log alone on the thread (which ends with it).
    for (const [s, parts] of sessions.entries()) {
      const recorder = open(s);
      parts.forEach((p, k) => recorder.record(frame(p.from, k, p.bytes, p.end)));
      await recorder.finish();
    }
  }
  return sessions.map((_, s) => readFileSync(join(dir, `S${s}.jsonl`), "utf8"));
}

describe("the session log on disk: one writer thread for every log", () => {
  after(cleanTemp);

  it("writes logs open at once as each is written alone", async function () {
    this.timeout(120_000);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(line, { minLength: 1, maxLength: 12 }), { minLength: 2, maxLength: 4 }), async (sessions) => {
        const parts = sessions.map((lines) => lines.flatMap(partsOf));
        const alone = await write(tempDir(), parts, false);
        const together = await write(tempDir(), parts, true);
        for (const [s, text] of together.entries()) {
          assert.equal(text, alone[s], `session ${s}`);
          assert.equal(text.split("\n").length - 2, sessions[s]!.length, `session ${s}: one entry a line`);
        }
      }),
      {
        numRuns: 12,
        // Always tried: two sessions whose server lines are long and split at once (their pieces interleave).
        examples: [
          [
            [
              [{ from: "server", json: true, text: "a", split: true, long: true }, { from: "client", json: false, text: "b", split: false, long: false }],
              [{ from: "server", json: false, text: "c", split: true, long: true }, { from: "server", json: true, text: "d", split: true, long: false }],
            ],
          ],
        ],
      },
    );
  });
});
