/**
 * `stretto export-answers` and `stretto import-answers`, as binaries: answers stored by the
 * cache itself are exported, imported into another cache, and exported again the same; blank
 * lines are skipped, a bad line stops the import, a missing cache exports nothing.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AnswerCache, requestKey } from "../../lib/oracle/cache.js";
import type { OracleResponse } from "../../lib/oracle/oracle.js";
import { Readable } from "node:stream";
import { cleanTemp, NODE, run, STRETTO, tempDir } from "../helpers/processes.js";
import { parseArgs } from "../../lib/cli/stretto/command.js";
import { importAnswers, importAnswersCommand } from "../../lib/cli/stretto/import-answers.js";
import { stretto } from "../drift/in-process.js";

/** import-answers in this process, with `input` as its stdin. */
async function importing(cache: string, input: string): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const io = { stdout: process.stdout, stderr: { write: (t: string) => (stderr += t) } as unknown as NodeJS.WritableStream, stderrIsTty: false };
  const code = await importAnswers(parseArgs(importAnswersCommand, ["--oracle-cache", cache]), io as never, Readable.from([input]));
  return { code, stderr };
}

const usage = { input_tokens: 12, output_tokens: 3 };
const choice: OracleResponse = {
  model: "jev-latest",
  answers: { next: { type: "choice", choice: "respond", probabilities: { respond: 0.7, get_user_details: 0.3 }, confidence: 0.7 } },
  usage,
};
const noul: OracleResponse = { model: "jev-latest", answers: { confirmed: { type: "noul", noul: 0.91 } }, usage };

describe("stretto export-answers and import-answers", function () {
  this.timeout(30_000);
  after(cleanTemp);

  it("export what the cache holds, sorted by key; import stores it; export again says the same", async () => {
    const from = join(tempDir(), "cache");
    const cache = new AnswerCache(from);
    const keys = [requestKey({ model: "jev-latest", state: "a", questions: {} }), requestKey({ model: "jev-latest", state: "b", questions: {} })];
    await cache.write(keys[0]!, choice);
    await cache.write(keys[1]!, noul);
    const exported = await run(NODE, [STRETTO, "export-answers", "--oracle-cache", from]);
    assert.equal(exported.code, 0, exported.stderr.toString());
    const lines = exported.stdout.toString().trim().split("\n");
    assert.equal(lines.length, 2);
    const parsed = lines.map((l) => JSON.parse(l) as { key: string; response: unknown });
    assert.deepEqual(parsed.map((p) => p.key), [...keys].sort());
    assert.deepEqual(parsed.find((p) => p.key === keys[0])!.response, choice);

    const to = join(tempDir(), "other-cache");
    const imported = await run(NODE, [STRETTO, "import-answers", "--oracle-cache", to], { input: `\n${exported.stdout.toString()}\n` });
    assert.equal(imported.code, 0, imported.stderr.toString());
    assert.equal(imported.stderr.toString(), "stretto: imported 2 answers\n");
    assert.deepEqual(await new AnswerCache(to).read(keys[1]!), noul);
    const again = await stretto("export-answers", "--oracle-cache", to);
    assert.equal(again.stdout, exported.stdout.toString());
  });

  it("stops at a line that is not an answer, and a missing cache exports nothing", async () => {
    const to = join(tempDir(), "cache");
    const good = JSON.stringify({ key: "abc123", response: noul });
    const badKey = await importing(to, `${good}\n${JSON.stringify({ key: "../x", response: noul })}\n`);
    assert.equal(badKey.code, 1);
    assert.equal(badKey.stderr, 'stretto: line 2: not a request key: "../x" (imported 1 answers before it)\n');
    assert.ok(existsSync(join(to, "ab", "abc123.json")));
    const notJson = await importing(to, "{nope\n");
    assert.equal(notJson.code, 1);
    assert.match(notJson.stderr, /^stretto: line 1: not JSON: /);
    const none = await stretto("export-answers", "--oracle-cache", join(tempDir(), "nowhere"));
    assert.deepEqual([none.code, none.stdout], [0, ""]);
  });
});
