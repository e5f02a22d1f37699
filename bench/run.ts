/**
 * `make bench`: runs every `dist/bench/*.bench.js` in turn, each in its own process so one
 * benchmark's heap and timers cannot colour the next one's figures. Each prints its own
 * table with ratios against its floor measured in the same run.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith(".bench.js"))
  // The soak runs for minutes: `make bench-soak`, or named here.
  .filter((f) => (only.length === 0 ? f !== "soak.bench.js" : only.some((o) => f.includes(o))))
  .sort();

let failed = 0;
for (const file of benches) {
  process.stdout.write(`\n=== ${file.replace(/\.bench\.js$/, "")} ===\n`);
  const r = spawnSync(process.execPath, ["--expose-gc", join(here, file)], { stdio: "inherit" });
  if (r.status !== 0) {
    failed++;
    process.stdout.write(`${file} failed with ${r.status ?? r.signal}\n`);
  }
}
process.exit(failed === 0 ? 0 : 1);
