import { once } from "node:events";
import type { Readable, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { LineSplitter } from "../bus/line-splitter.js";
import { sortedJson } from "../util/sorted-json.js";
import { answerMessage } from "./answer.js";
import { isBlank } from "./unicode-space.js";
import type { World } from "./worlds/world.js";

// Lossy like Rust's `from_utf8_lossy`; a leading BOM is kept, as Rust keeps it.
const lossy = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/**
 * Serves MCP over stdio: answers each line of `input` on `output`, one line per answer,
 * strictly in turn. A call's `delay_ms` holds up every later answer, so parallel calls
 * come back in the order they were sent. Resolves when `input` ends and every answer is
 * written; rejects when reading or writing fails.
 */
export async function serveStdio(world: World, input: Readable, output: Writable): Promise<void> {
  let failure: Error | undefined;
  const onError = (err: Error) => {
    failure ??= err;
  };
  output.on("error", onError);
  let lastWrite: Promise<void> = Promise.resolve();
  const write = async (text: string): Promise<void> => {
    if (failure) throw failure;
    lastWrite = new Promise((resolve, reject) => {
      output.write(text, (err) => (err ? reject(err) : resolve()));
    });
    lastWrite.catch(() => {}); // surfaced through `failure` or the final await
    // Backpressure: a host that reads slowly slows us down instead of growing memory.
    if (output.writableNeedDrain) await once(output, "drain");
  };
  const answerLine = async (bytes: Buffer): Promise<void> => {
    const text = lossy.decode(bytes);
    if (isBlank(text)) return;
    const answer = answerMessage(text, world);
    if (answer === undefined) return;
    if (answer.delayMs > 0) await sleep(answer.delayMs);
    await write(`${sortedJson(answer.message)}\n`);
  };
  try {
    // Whole lines only: the demo needs each message entire, however long.
    const splitter = new LineSplitter(Number.POSITIVE_INFINITY);
    // Pulling one chunk at a time keeps the input paused while answers wait.
    for await (const chunk of input) {
      for (const piece of splitter.push(chunk as Buffer)) await answerLine(piece.bytes);
    }
    for (const piece of splitter.end()) await answerLine(piece.bytes);
    // The last answer must really be out before we say we are done (Rust flushes each).
    await lastWrite;
    if (failure) throw failure;
  } finally {
    output.off("error", onError);
  }
}
