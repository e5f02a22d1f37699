import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { contextFileNotice } from "../../lib/plugins/context/context-file.js";
import { contextPath } from "../../lib/cli/context-path.js";
import { InvalidValue } from "../../lib/cli/args.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";

describe("--context checks at start", () => {
  after(cleanTemp);

  it("a notice for a file not there yet, a folder, or a path through a file; none for a file", () => {
    const dir = tempDir();
    const file = join(dir, "c.jsonl");
    assert.equal(contextFileNotice(file), `the conversation file ${file} does not exist yet; it is read once the host creates it`);
    assert.equal(contextFileNotice(dir), `the conversation file ${dir} is a folder; nothing is read from it`);
    writeFileSync(file, "");
    assert.equal(contextFileNotice(file), undefined);
    assert.match(contextFileNotice(join(file, "x"))!, /^the conversation file .* cannot be read \(Not a directory \(os error 20\)\); it is tried again before each tool call$/);
  });

  it("the option's value: a missing folder or a folder is refused, {session} folders are the host's", () => {
    const dir = tempDir();
    const refused = (raw: string) => assert.throws(() => contextPath(raw), InvalidValue);
    refused(join(dir, "nope", "c.jsonl"));
    refused(dir);
    refused("");
    assert.equal(contextPath(join(dir, "c.jsonl")), join(dir, "c.jsonl"));
    assert.equal(contextPath(join(dir, "{session}", "c.jsonl")), join(dir, "{session}", "c.jsonl"));
    assert.equal(contextPath(join(dir, "{session}.jsonl")), join(dir, "{session}.jsonl"));
  });
});
