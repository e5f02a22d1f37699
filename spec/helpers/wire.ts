/**
 * Helpers for the end-to-end specs that look at the wire and the log byte for byte, and at
 * processes from the outside (/proc). Processes themselves are started with processes.ts.
 */
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DIST } from "./processes.js";

/** The tap that records a host's side of the wire (see wire-tap.ts). */
export const WIRE_TAP = join(DIST, "spec/helpers/wire-tap.js");

/** Splits bytes into lines, each keeping its `\n` (a last line without one is kept too). */
export function splitLines(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (;;) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl === -1) break;
    out.push(bytes.subarray(start, nl + 1));
    start = nl + 1;
  }
  if (start < bytes.length) out.push(bytes.subarray(start));
  return out;
}

/** One log entry, taken apart by its text (not re-serialized), so bytes can be compared. */
export interface Entry {
  tMs: number;
  from: string;
  /** The `message` value's text exactly as in the file, or undefined for a raw entry. */
  message?: string;
  /** The `raw` value, decoded. */
  raw?: string;
  text: string;
}

const ENTRY = /^\{"t_ms":(\d+),"from":"(client|server|proxy|context)","(message|raw)":([\s\S]*)\}$/;

export function parseEntry(text: string): Entry {
  const m = ENTRY.exec(text);
  if (!m) throw new Error(`not a log entry: ${text.slice(0, 200)}`);
  const entry: Entry = { tMs: Number(m[1]), from: m[2]!, text };
  if (m[3] === "message") {
    JSON.parse(m[4]!); // must be JSON
    entry.message = m[4]!;
  } else {
    const raw: unknown = JSON.parse(m[4]!);
    if (typeof raw !== "string") throw new Error(`raw is not a string: ${text.slice(0, 200)}`);
    entry.raw = raw;
  }
  return entry;
}

/** A wire line as its log `message` text would be if it were a compact JSON line. */
export function lineText(line: Buffer): string {
  let end = line.length;
  if (end > 0 && line[end - 1] === 0x0a) end--;
  if (end > 0 && line[end - 1] === 0x0d) end--;
  return line.subarray(0, end).toString("utf8");
}

/** Is the process there and not a zombie? (/proc, so reaped-or-not does not matter.) */
export function isRunning(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return state !== "Z" && state !== "X";
}

/** The live (non-zombie) processes in a process group. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirNumbers("/proc")) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") members.push(entry);
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

function readdirNumbers(dir: string): number[] {
  return readdirSync(dir)
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

/** The resident set size of a process in KiB, or undefined once it is gone. */
export function vmRssKb(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Polls `cond` every 20 ms; rejects after `timeoutMs` (a safety net, not a speed check). */
export async function waitFor(what: string, cond: () => boolean, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** How a started process ended (resolves at once if it already has). */
export function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

/** Gathers a stream's bytes; the promise resolves at its end. */
export function gather(stream: NodeJS.ReadableStream): { chunks: Buffer[]; done: Promise<Buffer> } {
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve) => {
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.once("end", () => resolve(Buffer.concat(chunks)));
    stream.once("close", () => resolve(Buffer.concat(chunks)));
  });
  return { chunks, done };
}

/** Resolves once `bytes` so far contain `needle`. */
export function until(gathered: { chunks: Buffer[] }, stream: NodeJS.ReadableStream, needle: string | Buffer, timeoutMs = 10000): Promise<void> {
  const has = () => Buffer.concat(gathered.chunks).includes(needle);
  if (has()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stream.off("data", check);
      reject(new Error(`timed out waiting for ${String(needle).slice(0, 80)}`));
    }, timeoutMs);
    const check = () => {
      if (!has()) return;
      clearTimeout(timer);
      stream.off("data", check);
      resolve();
    };
    stream.on("data", check);
  });
}
