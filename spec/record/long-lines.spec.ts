/**
 * Long lines recorded through the real proxy: lines of several megabytes go to the writer
 * thread in pieces as they arrive, and the log must still hold each line as one entry, in
 * the order the lines ended, with the same `message`/`raw` decision as a short line gets —
 * including a long last line that no line end ever closes.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { cleanTemp, killAll, runProxy, sessionLogs, tempDir } from "../helpers/processes.js";

const MiB = 1024 * 1024;

interface Entry {
  from: string;
  message?: unknown;
  raw?: string;
}

function entriesIn(dir: string): { entries: Entry[]; text: string } {
  const logs = sessionLogs(dir);
  assert.equal(logs.length, 1);
  const text = readFileSync(logs[0]!, "utf8");
  const lines = text.split("\n").filter((l) => l !== "");
  return { entries: lines.slice(1).map((l) => JSON.parse(l) as Entry), text };
}

describe("recording long lines", function () {
  this.timeout(60_000);
  after(() => {
    killAll();
    cleanTemp();
  });

  it("logs each long line whole and in order, both ways, as message or raw as a short line would be", async () => {
    const small = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;
    const bigJson = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${"é😀ab".repeat(200_000)}"}}}\n`;
    // Invalid UTF-8 in the middle of a long line: raw, with U+FFFD, as a short line would be.
    const bigBad = Buffer.concat([Buffer.from(`{"x":"${"y".repeat(1.5 * MiB)}`), Buffer.from([0xc0, 0xaf]), Buffer.from('"}\n')]);
    // The last line has no line end: it is recorded when the host's input ends.
    const lastJson = `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"${"z".repeat(1.2 * MiB)}"}}`;
    const input = Buffer.concat([Buffer.from(small(1)), Buffer.from(bigJson), bigBad, Buffer.from(small(4)), Buffer.from(lastJson)]);

    const dir = tempDir();
    // `cat` sends every line back, so the server side carries the same long lines.
    const r = await runProxy(["--record", dir, "--", "cat"], { input, timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.equals(input), "forwarded byte for byte");

    const { entries, text } = entriesIn(dir);
    const badText = `{"x":"${"y".repeat(1.5 * MiB)}\uFFFD\uFFFD"}`;
    for (const side of ["client", "server"]) {
      const mine = entries.filter((e) => e.from === side);
      assert.equal(mine.length, 5, `${side}: five entries`);
      assert.deepEqual(mine[0]!.message, JSON.parse(small(1)));
      assert.deepEqual(mine[1]!.message, JSON.parse(bigJson));
      assert.equal(mine[2]!.message, undefined);
      assert.equal(mine[2]!.raw, badText);
      assert.deepEqual(mine[3]!.message, JSON.parse(small(4)));
      assert.deepEqual(mine[4]!.message, JSON.parse(lastJson));
    }
    // A message is kept verbatim: its bytes are in the log as they were sent.
    assert.ok(text.includes(`"from":"client","message":${bigJson.trimEnd()}}\n`));
  });
});
