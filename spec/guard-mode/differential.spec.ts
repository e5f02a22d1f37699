/**
 * Differential fuzzing of guard mode. Refused calls are written every way `mutations.ts`
 * knows, and what the proxy lets through is read by six kinds of server reader
 * (`readers.ts`). In-process, the property is agreement: a line the strict check admits
 * reads the same in every reader as the value the guards judged. Through the real proxy
 * (guards in front of the demo shop, behind a wire tap), none of the readers may find the
 * refused call in anything that reached the server.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LineHost } from "./line-host.js";
import fc from "fast-check";
import { checkLine } from "../../lib/protocol/line-check.js";
import { DEMO, NODE, PROXY, cleanTemp, killAll, start, tempDir } from "../helpers/processes.js";
import { refusedCallLine } from "./mutations.js";
import { READERS, callsOf } from "./readers.js";

const TAP = join(PROXY, "../../../spec/helpers/wire-tap.js");
const IN_PROCESS_RUNS = 3000;
const THROUGH_PROXY = 400;

/** The lines a proxy reading `bytes` sees: split on `\n`, each keeping it. */
function linesOf(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    out.push(bytes.subarray(start, nl + 1));
    start = nl + 1;
  }
  out.push(Buffer.concat([bytes.subarray(start), Buffer.from("\n")]));
  return out;
}

describe("guard mode, differential fuzzing", function () {
  this.timeout(120_000);
  after(() => {
    killAll();
    cleanTemp();
  });

  it(`an admitted line reads the same in every server reader (${IN_PROCESS_RUNS} lines)`, () => {
    let admitted = 0;
    fc.assert(
      fc.property(refusedCallLine, (bytes) => {
        for (const line of linesOf(bytes)) {
          const check = checkLine(line);
          if (!check.ok) continue;
          admitted++;
          const judged = check.batch ? [check.messages.map((m) => m.value)] : check.messages.map((m) => m.value);
          for (const [name, read] of Object.entries(READERS)) {
            assert.deepStrictEqual(read(line), judged, `${name} reads ${JSON.stringify(line.toString("latin1").slice(0, 300))} differently`);
          }
        }
      }),
      { numRuns: IN_PROCESS_RUNS, seed: 20261202 },
    );
    console.log(`      ${admitted} of the lines were admitted, and read alike by all ${Object.keys(READERS).length} readers`);
    // Some mutations are clean (escapes, spaces, plain ids): the property must have been tested.
    assert.ok(admitted > IN_PROCESS_RUNS / 20, `only ${admitted} lines were admitted; the generator lost its clean cases`);
  });

  it(`no reader finds a refused call in what reached the server (${THROUGH_PROXY} lines through the real proxy)`, async () => {
    const lines = fc.sample(refusedCallLine, { numRuns: THROUGH_PROXY, seed: 7 });
    const dir = tempDir();
    const host = new LineHost(start(NODE, [PROXY, "--guards", "--domain", "retail", "--", NODE, TAP, dir, "--", NODE, DEMO, "--world", "retail"]));
    for (const l of lines) host.send(l);
    host.send('{"jsonrpc":"2.0","id":"end","method":"ping"}');
    await host.waitFor((l) => l.includes('"id":"end"'));
    await host.end();
    const reached = readFileSync(join(dir, "host-sent.bin"));
    for (const [name, read] of Object.entries(READERS)) {
      assert.deepEqual(callsOf(read(reached), "cancel_pending_order"), [], `${name} found a refused call`);
    }
    assert.ok(reached.includes('"id":"end"'), "the clean ping after them went through");
  });
});
