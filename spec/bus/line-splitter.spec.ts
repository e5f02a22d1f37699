import assert from "node:assert/strict";
import fc from "fast-check";
import { LineSplitter } from "../../lib/bus/line-splitter.js";

const b = (s: string | number[]) => (typeof s === "string" ? Buffer.from(s, "latin1") : Buffer.from(s));

function splitAll(chunks: Buffer[], limit?: number) {
  const s = new LineSplitter(limit);
  const out = chunks.flatMap((c) => s.push(c));
  return [...out, ...s.end()];
}

describe("LineSplitter", () => {
  it("hands the same lines and pieces whether a line that lies whole in a read is handed as where it lies or as a view (500 inputs)", () => {
    const input = fc.array(fc.oneof(fc.constantFrom("\n", "\r\n", "a", "{}", "\xff"), fc.string({ maxLength: 40 })), { maxLength: 30 }).map((parts) => b(parts.join("")));
    fc.assert(
      fc.property(input, fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 10 }), fc.constantFrom(0, 5, 1 << 20), (bytes, sizes, limit) => {
        const chunks: Buffer[] = [];
        for (let at = 0, k = 0; at < bytes.length; k++) {
          const n = sizes[k % sizes.length]!;
          chunks.push(bytes.subarray(at, at + n));
          at += n;
        }
        const viewed = new LineSplitter(limit);
        const expected: Array<[string, boolean]> = [];
        for (const c of chunks) viewed.each(c, (p, end) => expected.push([p.toString("latin1"), end]));
        const placed = new LineSplitter(limit);
        const got: Array<[string, boolean]> = [];
        for (const c of chunks) {
          placed.eachIn(
            c,
            (read, start, stop) => {
              assert.equal(read, c, "a line is handed in the read that brought it");
              got.push([read.subarray(start, stop).toString("latin1"), true]);
            },
            (p, end) => got.push([p.toString("latin1"), end]),
          );
        }
        assert.deepEqual(got, expected);
      }),
      { numRuns: 500, seed: 20261204 },
    );
  });

  it("splits on \\n only and keeps every byte: CRLF, invalid UTF-8, a last line without \\n", () => {
    const input = b([...b('{"a":1}\r\n'), 0xff, 0xfe, ...b(" x\n"), ...b("\n"), ...b("last")]);
    const pieces = splitAll([input]);
    assert.deepEqual(
      pieces.map((p) => [p.bytes.toString("latin1"), p.end]),
      [
        ['{"a":1}\r\n', true],
        ["\xff\xfe x\n", true],
        ["\n", true],
        ["last", true],
      ],
    );
    assert.deepEqual(Buffer.concat(pieces.map((p) => p.bytes)), input);
  });

  it("joins a line split across chunks, even one byte at a time", () => {
    const input = b('{"jsonrpc":"2.0","id":1}\nsecond\n');
    const chunks = [...input].map((x) => Buffer.from([x]));
    const pieces = splitAll(chunks);
    assert.deepEqual(
      pieces.map((p) => p.bytes.toString()),
      ['{"jsonrpc":"2.0","id":1}\n', "second\n"],
    );
  });

  it("hands a line longer than the piece limit out in pieces, the last one ending it", () => {
    const long = Buffer.alloc(10_000, 0x61);
    const pieces = splitAll([long.subarray(0, 4000), long.subarray(4000, 8000), Buffer.concat([long.subarray(8000), b("\nnext\n")])], 3000);
    assert.deepEqual(
      pieces.map((p) => [p.bytes.length, p.end]),
      [
        [4000, false],
        [4000, false],
        [2001, true],
        [5, true],
      ],
    );
    assert.deepEqual(Buffer.concat(pieces.slice(0, 3).map((p) => p.bytes)), Buffer.concat([long, b("\n")]));
  });

  it("gives nothing at the end when input ended with \\n, or was empty", () => {
    const s = new LineSplitter();
    assert.equal(s.push(b("a\n")).length, 1);
    assert.deepEqual(s.end(), []);
    assert.deepEqual(new LineSplitter().end(), []);
  });

  it("passes a 64 MiB line through byte for byte", () => {
    const big = Buffer.alloc(64 << 20, 0x62);
    big[big.length - 1] = 0x0a;
    const chunkSize = 65536;
    const s = new LineSplitter();
    let total = 0;
    let ends = 0;
    for (let i = 0; i < big.length; i += chunkSize) {
      for (const p of s.push(big.subarray(i, i + chunkSize))) {
        assert.ok(p.bytes.equals(big.subarray(total, total + p.bytes.length)));
        total += p.bytes.length;
        if (p.end) ends++;
      }
    }
    assert.equal(total, big.length);
    assert.equal(ends, 1);
  });
});
