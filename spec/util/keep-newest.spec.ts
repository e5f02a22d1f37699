import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";

const helper = new URL("../../lib/util/keep-newest.js", import.meta.url).href;

/**
 * A child node with V8's test hooks (`--allow-natives-syntax`, `--expose-gc`; this process
 * has neither): a class with fields, a function optimized for its instances, every instance
 * dropped, four full collections (V8 keeps a map its optimized code checks for two), then the
 * function called again. Prints whether it is still optimized code.
 */
function optimizedAfterCollections(keep: boolean): boolean {
  const script = `
    const { keepNewest } = await import(${JSON.stringify(helper)});
    class Point {
      x = 1;
      y = "a";
      constructor(z) { this.z = z; if (${keep}) keepNewest(this); }
    }
    function read(p) { return p.x + p.y.length + p.z; }
    function use() { return read(new Point(2)); }
    function optimize() { %PrepareFunctionForOptimization(read); use(); use(); %OptimizeFunctionOnNextCall(read); use(); return %GetOptimizationStatus(read); }
    const TURBOFANNED = 64;
    if ((optimize() & TURBOFANNED) === 0) throw new Error("read was not optimized");
    for (let i = 0; i < 4; i++) gc();
    function after() { use(); return %GetOptimizationStatus(read); }
    console.log((after() & TURBOFANNED) !== 0);
  `;
  const out = execFileSync(process.execPath, ["--expose-gc", "--allow-natives-syntax", "--input-type=module", "-e", script], { encoding: "utf8" });
  return out.trim() === "true";
}

describe("keepNewest: a class's V8 map outlives the instances made per call", () => {
  it("without it, full collections with no instance alive throw away the code optimized for them", () => {
    // The control: shows the child detects the loss, so the next test can fail.
    assert.equal(optimizedAfterCollections(false), false);
  });

  it("with the newest instance kept, the optimized code stays", () => {
    assert.equal(optimizedAfterCollections(true), true);
  });
});
