/** `textLines`: a text JSONL file as lines through split2, with its errors. */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { textLines } from "../../lib/util/text-lines.js";
import { tempDir } from "../helpers/processes.js";

async function all(path: string, maxLength?: number): Promise<string[]> {
  const out: string[] = [];
  for await (const l of textLines(path, maxLength)) out.push(l);
  return out;
}

describe("textLines", () => {
  const dir = tempDir("stretto-lines-");

  it("gives every line, blank ones included (so line numbers hold), CRLF or LF, last line unterminated", async () => {
    const f = join(dir, "a.jsonl");
    writeFileSync(f, '{"a":1}\n\n{"b":2}\r\n{"c":3}');
    assert.deepEqual(await all(f), ['{"a":1}', "", '{"b":2}', '{"c":3}']);
  });

  it("rejects with the read error for a missing file or a folder", async () => {
    await assert.rejects(all(join(dir, "absent.jsonl")), /ENOENT/);
    await assert.rejects(all(dir), /EISDIR/);
  });

  it("rejects a line that runs past the bound without ending, instead of holding it", async () => {
    const f = join(dir, "long.jsonl");
    // Longer than one read (64 KiB), so the splitter holds an unfinished line between reads.
    writeFileSync(f, `${"x".repeat(200_000)}\n`);
    await assert.rejects(all(f, 100_000), /maximum buffer reached/);
    assert.deepEqual(await all(f, 300_000), ["x".repeat(200_000)]);
  });
});
