/**
 * The writer thread reads plain JSON lines straight from their bytes (plain-message.ts) and
 * leaves every other line to `classifyLine`. Its yes must never differ from the full rules:
 * same `message` decision, same bytes. Checked on vectors for each rule it declines, then
 * differentially on JSON, near-JSON and arbitrary bytes; and the whole writer (ring,
 * layout, gathered writes, spill) against `formatEntry` line by line.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { frame } from "../../lib/bus/frame.js";
import { classifyLine, formatEntry, stripLineEnd } from "../../lib/record/log-entry.js";
import { LogWriter } from "../../lib/record/log-writer.js";
import { plainMessage } from "../../lib/record/plain-message.js";
import { Recorder } from "../../lib/record/recorder.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";
import { jsonLines, mutatedLines } from "./line-arbitraries.js";

/** What the quick check says, held against the full rules. */
function agrees(line: Buffer): "quick" | "full" {
  const body = stripLineEnd(line);
  const quick = plainMessage(body);
  if (!quick) return "full";
  const c = classifyLine(line);
  assert.equal(c.kind, "message", `quick yes on ${JSON.stringify(line.toString("latin1"))}`);
  assert.ok(c.kind === "message" && c.json.equals(body.subarray(quick.start, quick.end)), "the same bytes");
  return "quick";
}

const jsonText = jsonLines(["", " ", "  ", "\t", "\r\n"], 5);
const mutated = mutatedLines(jsonText);
const tricky = fc
  .array(fc.constantFrom("\\ud83d", "\\ude00", "\\ud83d\\ude00", "\\u0041", "\\uD800", "a", "é", "😀", '\\"', "\\\\", "\\n", "\\x"), { maxLength: 8 })
  .chain((xs) =>
    fc.constantFrom("1", "1e400", "-0.5e-9", "1e307", "1".repeat(309), "01", "1.", "-", "1E+02").map((n) => Buffer.from(`{"k":"${xs.join("")}","n":${n}}\n`)),
  );
const bytes = fc.uint8Array({ maxLength: 64 }).map((u) => Buffer.from(u));

describe("plain JSON lines read from their bytes", () => {
  after(cleanTemp);

  it("says yes to the lines sessions are made of, with the bytes the full rules keep", () => {
    for (const l of [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"café 😀 \\"q\\" \\u00e9"}}}\n',
      '  [{"a":[true,false,null,-0,1.5e-3,2E+10]},{}]  \r\n',
      '"just a string"',
      "[[[[[]]]]]\n",
    ]) {
      assert.equal(agrees(Buffer.from(l)), "quick", l);
    }
  });

  it("leaves every rule it does not check to the full rules", () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    for (const l of ['{"t":"\\ud83d\\ude00"}', '{"t":"\\udc00"}', '{"n":1e400}', "\uFEFF{}", '{"a":\t1}', '{"a":"x\ty"}', deep(127), "01", "[1,]", "{} {}", "", " "]) {
      assert.equal(agrees(Buffer.from(`${l}\n`)), "full", l);
    }
    assert.equal(agrees(Buffer.from(`${deep(126)}\n`)), "quick");
    assert.equal(agrees(Buffer.from([0x22, 0xc0, 0xaf, 0x22, 0x0a])), "full", "invalid UTF-8");
  });

  it("reads strings of every length around where it stops scanning them itself, whatever sits where", () => {
    let quick = 0;
    for (let n = 0; n <= 40; n++) {
      for (let p = 0; p <= n; p++) {
        for (const piece of ['\\"', "\\\\", "\\u0041", "\\ud800", "\u0001", "\t", '"', "\\x", "é", ""]) {
          const text = `${"a".repeat(p)}${piece}${"b".repeat(n - p)}`;
          for (const l of [`{"k":"${text}"}\n`, `{"${text}":1,"z":[""]}\n`]) if (agrees(Buffer.from(l)) === "quick") quick++;
        }
      }
    }
    assert.ok(quick > 3000, `the quick path is taken (${quick})`);
  });

  it("never says yes where the full rules say raw, nor to other bytes (property)", () => {
    let quick = 0;
    fc.assert(
      fc.property(fc.oneof(jsonText, mutated, tricky, bytes), (line) => {
        if (agrees(line) === "quick") quick++;
      }),
      { numRuns: 4000 },
    );
    assert.ok(quick > 200, `the quick path is taken (${quick} of 4000)`);
  });

  it("the writer thread logs each line as formatEntry does, short lines and long ones alike", async () => {
    const lines = fc.sample(fc.oneof(jsonText, mutated, tricky, bytes), { numRuns: 400, seed: 15 }).map((b) => (b.at(-1) === 0x0a ? b : Buffer.concat([b, Buffer.from("\n")])));
    const long = (fill: string) => Buffer.from(`{"id":7,"result":{"text":"${fill.repeat(300_000)}"}}\n`);
    lines.splice(100, 0, long("é😀ab"), long("x\ty!"));
    const dir = tempDir();
    const r = new Recorder(LogWriter.create(dir, "S", { stretto_mcp_log: 2 }, { onStopped: (m) => assert.fail(m) }));
    let t = 0;
    for (const l of lines) {
      t++;
      // Long lines arrive in reads of 64 KiB, as from a pipe.
      for (let at = 0; at < l.length; at += 65536) r.record(frame(t % 2 ? "client" : "server", t, l.subarray(at, at + 65536), at + 65536 >= l.length));
    }
    await r.finish();
    const expected = lines.map((l, i) => formatEntry(i + 1, (i + 1) % 2 ? "client" : "server", l).toString("utf8"));
    const got = readFileSync(join(dir, "S.jsonl"), "utf8").split("\n").slice(1, -1).map((e) => `${e}\n`);
    assert.equal(got.length, expected.length);
    for (let i = 0; i < expected.length; i++) assert.equal(got[i], expected[i], `line ${i}`);
  });

  it("the writer thread logs lines from several senders within the same milliseconds as formatEntry does", async () => {
    const senders = ["client", "server", "proxy", "context"] as const;
    const lines = fc.sample(fc.oneof(jsonText, tricky), { numRuns: 600, seed: 16 }).map((b) => (b.at(-1) === 0x0a ? b : Buffer.concat([b, Buffer.from("\n")])));
    const dir = tempDir();
    const r = new Recorder(LogWriter.create(dir, "T", { stretto_mcp_log: 2 }, { onStopped: (m) => assert.fail(m) }));
    const sent = lines.map((l, i) => ({ l, from: senders[(i * 7) % 3 === 0 ? (i >> 2) & 3 : i & 1]!, t: 1000 + Math.floor(i / 9) }));
    for (const s of sent) r.record(frame(s.from, s.t, s.l, true));
    await r.finish();
    const got = readFileSync(join(dir, "T.jsonl"), "utf8").split("\n").slice(1, -1).map((e) => `${e}\n`);
    assert.equal(got.length, sent.length);
    for (let i = 0; i < sent.length; i++) assert.equal(got[i], formatEntry(sent[i]!.t, sent[i]!.from, sent[i]!.l).toString("utf8"), `line ${i}`);
  });
});
