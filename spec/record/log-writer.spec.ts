import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LogWriter } from "../../lib/record/log-writer.js";
import { Recorder } from "../../lib/record/recorder.js";
import { frame } from "../../lib/bus/frame.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";

describe("the session log on disk", () => {
  after(cleanTemp);

  it("creates the directory, writes the header first, then each entry", async () => {
    const dir = join(tempDir(), "a/b");
    const w = LogWriter.create(dir, "S-1", { stretto_mcp_log: 2, session: "S-1" });
    const r = new Recorder(w);
    r.record(frame("client", 1, Buffer.from('{"id":1}\n')));
    r.record(frame("server", 2, Buffer.from("hello\n")));
    await r.finish();
    assert.equal(
      readFileSync(join(dir, "S-1.jsonl"), "utf8"),
      '{"stretto_mcp_log":2,"session":"S-1"}\n{"t_ms":1,"from":"client","message":{"id":1}}\n{"t_ms":2,"from":"server","raw":"hello"}\n',
    );
  });

  it("joins the pieces of a long line into one entry, timed when the line was complete", async () => {
    const dir = tempDir();
    const r = new Recorder(LogWriter.create(dir, "S", {}));
    r.record(frame("server", 1, Buffer.from('{"a":"'), false));
    r.record(frame("client", 2, Buffer.from("x\n")));
    r.record(frame("server", 3, Buffer.from('b"}\n')));
    await r.finish();
    const lines = readFileSync(join(dir, "S.jsonl"), "utf8").trim().split("\n").slice(1);
    assert.deepEqual(lines, ['{"t_ms":2,"from":"client","raw":"x"}', '{"t_ms":3,"from":"server","message":{"a":"b"}}']);
  });

  it("never lets a time go backwards down the file", async () => {
    const dir = tempDir();
    const r = new Recorder(LogWriter.create(dir, "S", {}));
    r.line("client", 9, Buffer.from("a\n"));
    r.line("server", 4, Buffer.from("b\n"));
    await r.finish();
    const times = readFileSync(join(dir, "S.jsonl"), "utf8").trim().split("\n").slice(1).map((l) => (JSON.parse(l) as Record<string, unknown>)["t_ms"]);
    assert.deepEqual(times, [9, 9]);
  });

  it("says why it could not start, and leaves nothing behind", () => {
    const root = tempDir();
    const aFile = join(root, "file");
    writeFileSync(aFile, "");
    assert.throws(() => LogWriter.create(join(aFile, "logs"), "S", {}), (e: Error) => e.message.startsWith(`creating ${join(aFile, "logs")}: `));

    LogWriter.create(root, "S", {}).discard();
    const first = LogWriter.create(root, "T", { first: true });
    assert.throws(() => LogWriter.create(root, "T", {}), (e: Error) => e.message.startsWith(`creating ${join(root, "T.jsonl")}: `), "never overwrites");
    void first.finish();

    const unwritable = { toJSON: () => { throw new Error("header cannot be written"); } };
    assert.throws(() => LogWriter.create(root, "U", unwritable), /^ProxyError: writing .*U\.jsonl: header cannot be written$/);
    assert.ok(!existsSync(join(root, "U.jsonl")), "a header that cannot be written leaves no file");
    assert.deepEqual(readdirSync(root).sort(), ["T.jsonl", "file"]);
  });
});
