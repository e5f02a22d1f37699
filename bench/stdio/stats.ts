/**
 * Figures for the stdio benchmark: percentiles over round-trip times, and what a process
 * costs as the kernel sees it (peak RSS from `/proc/<pid>/status`, CPU time from
 * `/proc/<pid>/task/<tid>/schedstat`). Linux only; elsewhere the process figures are
 * `undefined` and print as a dash.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Nearest-rank percentile of an ascending array; NaN when it is empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function median(values: readonly number[]): number {
  return percentile(Float64Array.from(values).sort(), 50);
}

/** `VmHWM` (peak resident set) and `VmRSS` in bytes, from `/proc/<pid>/status`. */
export function memoryOf(pid: number): { hwm: number; rss: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const kib = (field: string) => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text);
    return m ? Number(m[1]) * 1024 : Number.NaN;
  };
  return { hwm: kib("VmHWM"), rss: kib("VmRSS") };
}

/**
 * CPU time a process has used so far, in nanoseconds, summed over its live threads (the
 * main thread, libuv's pool that writes the log, V8's GC helpers). Falls back to utime +
 * stime from `/proc/<pid>/stat` (clock-tick resolution) when schedstat is missing.
 */
export function cpuNsOf(pid: number): number | undefined {
  try {
    let total = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    if (total > 0) return total;
  } catch {
    // No /proc/<pid>/task: try stat below.
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat(5), counted from the state field (3) onwards.
    return ((Number(fields[11]) + Number(fields[12])) * 1e9) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Samples a process's resident set every `everyMs` while a cell runs. The peak reported
 * is the larger of the sampled maximum and the kernel's own high-water mark (`VmHWM`),
 * which catches a spike between two samples.
 */
export class RssSampler {
  private max = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 25,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  /** Stops sampling; the peak in bytes, or undefined when the process could not be read. */
  stop(): number | undefined {
    clearInterval(this.timer);
    this.sample();
    return this.max > 0 ? this.max : undefined;
  }

  private sample(): void {
    const m = memoryOf(this.pid);
    if (!m) return;
    for (const v of [m.hwm, m.rss]) if (Number.isFinite(v) && v > this.max) this.max = v;
  }
}

/** Every process below `pid` (children, grandchildren…), from the parent pid in each `/proc/<pid>/stat`. */
export function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = parentOf.get(ppid) ?? [];
      list.push(Number(name));
      parentOf.set(ppid, list);
    } catch {
      // Gone already.
    }
  }
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    for (const child of parentOf.get(stack.pop()!) ?? []) {
      out.push(child);
      stack.push(child);
    }
  }
  return out;
}
