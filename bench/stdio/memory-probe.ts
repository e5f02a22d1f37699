/**
 * Loaded into a proxy the soak measures (`--probe`: `node --import <this file>`), never into
 * one a user runs: on SIGUSR2 it appends one JSON line to the file `SOAK_PROBE_OUT` names,
 * with what V8 and the allocator hold, so that a checkpoint's RSS can be told apart into the
 * heap's spaces (committed and used), the heap's live part (after a full collection, when the
 * proxy runs with `--expose-gc`), external memory, what V8 mallocs, and the threads.
 */
import { appendFileSync, readdirSync } from "node:fs";
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";

const out = process.env["SOAK_PROBE_OUT"];

/** One checkpoint's figures, in bytes. */
export interface Probe {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  malloced: number;
  peakMalloced: number;
  /** By space: what it has committed, and what is in use. */
  spaces: Record<string, { size: number; used: number }>;
  /** Heap in use after a full collection; undefined without `--expose-gc`. */
  liveHeap: number | undefined;
  threads: number;
}

function probe(): Probe {
  const m = process.memoryUsage();
  const h = getHeapStatistics();
  const spaces: Probe["spaces"] = {};
  for (const s of getHeapSpaceStatistics()) spaces[s.space_name] = { size: s.space_size, used: s.space_used_size };
  const gc = (globalThis as { gc?: () => void }).gc;
  let liveHeap: number | undefined;
  if (gc !== undefined) {
    gc();
    gc();
    liveHeap = process.memoryUsage().heapUsed;
  }
  let threads = 0;
  try {
    threads = readdirSync("/proc/self/task").length;
  } catch {
    threads = Number.NaN;
  }
  return { rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, malloced: h.malloced_memory, peakMalloced: h.peak_malloced_memory, spaces, liveHeap, threads };
}

if (out !== undefined) process.on("SIGUSR2", () => appendFileSync(out, `${JSON.stringify(probe())}\n`));
