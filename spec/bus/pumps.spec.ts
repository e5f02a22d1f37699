import assert from "node:assert/strict";
import { PassThrough, Readable, Writable } from "node:stream";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { firstValueFrom, tap, toArray } from "rxjs";
import { lineSource } from "../../lib/bus/line-source.js";
import { Pressure } from "../../lib/bus/pressure.js";
import { WriteSink } from "../../lib/bus/write-sink.js";
import type { Clock } from "../../lib/bus/clock.js";
import { LogWriter } from "../../lib/record/log-writer.js";
import { Recorder } from "../../lib/record/recorder.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";

const clock: Clock = { now: () => 7, startedUnixMs: 0 };

describe("pumps: sources and sinks", () => {
  after(cleanTemp);

  it("a read error ends the source after handing on what was read", async () => {
    const readable = new Readable({ read() {} });
    let told: Error | undefined;
    const frames = firstValueFrom(
      lineSource(readable, { from: "client", clock, onReadError: (e) => (told = e) }).pipe(toArray()),
    );
    readable.push(Buffer.from("a\nb"));
    readable.destroy(new Error("boom"));
    const got = await frames;
    assert.deepEqual(got.map((f) => f.bytes.toString()), ["a\n", "b"]);
    assert.equal(told?.message, "boom");
  });

  it("after the output fails, lines are still read and recorded, and the failure is told once", async () => {
    const dir = tempDir();
    const recorder = new Recorder(LogWriter.create(dir, "S", {}));
    const broken = new Writable({
      write(_chunk, _enc, cb) {
        const err = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
        cb(err);
      },
    });
    const told: string[] = [];
    const sink = new WriteSink(broken, { onWriteError: (e) => told.push(e.message) });
    const input = new PassThrough();
    const done = new Promise<void>((resolve) =>
      lineSource(input, { from: "client", clock })
        .pipe(tap(recorder.record))
        .subscribe({ next: (f) => sink.next(f), complete: () => resolve() }),
    );
    input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await new Promise((r) => setImmediate(r));
    input.end('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await done;
    await recorder.finish();
    const entries = readFileSync(join(dir, "S.jsonl"), "utf8").trim().split("\n").slice(1);
    assert.equal(entries.length, 2);
    assert.deepEqual(told, ["write EPIPE"]);
  });

  it("a full writable pauses the source until it drains, and nothing is lost or reordered", async () => {
    const pressure = new Pressure();
    const written: Buffer[] = [];
    let release: (() => void) | undefined;
    const slow = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _enc, cb) {
        written.push(chunk);
        release = cb; // hold every write until the test lets it go
      },
    });
    const sink = new WriteSink(slow, { pressure });
    const input = new PassThrough();
    const done = new Promise<void>((resolve) =>
      lineSource(input, { from: "server", clock, pressure }).subscribe({
        next: (f) => sink.next(f),
        complete: () => resolve(),
      }),
    );
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i} ${"x".repeat(20)}\n`);
    for (const l of lines) input.write(l);
    input.end();
    await new Promise((r) => setImmediate(r));
    assert.ok(pressure.isPaused, "the source is paused while the sink is full");
    assert.ok(input.isPaused());
    while (release) {
      const r = release;
      release = undefined;
      r();
      await new Promise((res) => setImmediate(res));
    }
    await done;
    assert.equal(Buffer.concat(written).toString(), lines.join(""));
    assert.ok(!pressure.isPaused);
  });
});
