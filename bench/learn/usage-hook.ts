/**
 * Loaded with `node --import` into a process the learning benchmark measures: at exit it
 * writes the process's own peak RSS and CPU time, as JSON, to the file named by
 * `STRETTO_BENCH_USAGE`. This way the real `stretto` binary is measured as it is, with
 * nothing of the benchmark in its heap.
 */
import { writeFileSync } from "node:fs";

const out = process.env["STRETTO_BENCH_USAGE"];
if (out !== undefined && out !== "") {
  process.on("exit", () => {
    const u = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ maxRssMb: u.maxRSS / 1024, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }) + "\n");
  });
}
