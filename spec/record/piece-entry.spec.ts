/**
 * A long line's entry made from its pieces must be byte for byte the entry the whole line
 * gets: the same `message`/`raw` decision, the same bytes. Fixed vectors for each rule, then
 * a differential property over JSON texts, near-JSON texts and arbitrary bytes, each cut
 * into pieces at random places (inside a UTF-8 sequence, an escape, a number, a line end).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { formatEntry } from "../../lib/record/log-entry.js";
import { formatPieceEntry } from "../../lib/record/piece-entry.js";
import { jsonLines, mutatedLines } from "./line-arbitraries.js";

/** `line` cut at `cuts` (offsets, any order, duplicates and ends allowed). */
function cut(line: Buffer, cuts: readonly number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => Math.min(Math.max(0, c), line.length)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let start = 0;
  for (const c of [...at, line.length]) {
    pieces.push(line.subarray(start, c));
    start = c;
  }
  return pieces;
}

function same(line: Buffer, cuts: readonly number[], forceRaw = false): void {
  const whole = formatEntry(7, "server", line, forceRaw).toString("utf8");
  const pieces = Buffer.concat(formatPieceEntry(7, "server", cut(line, cuts), forceRaw)).toString("utf8");
  assert.equal(pieces, whole);
}

/** Every cut of `text` into two pieces and into single bytes. */
function everyCut(line: Buffer): void {
  for (let i = 0; i <= line.length; i++) same(line, [i]);
  same(line, Array.from({ length: line.length }, (_, i) => i));
}

describe("log entries of lines taken in pieces", () => {
  const vectors: Array<[string, string | Buffer]> = [
    ["a message with CRLF and surrounding whitespace", ' {"jsonrpc":"2.0","id":1,"method":"ping"} \r\n'],
    ["key order, number spelling and non-ASCII", '{"z":1.50,"a":"café 😀","batch":[1e3,-0,2.5E-3]}\n'],
    ["a batch", '[{"a":1},{"b":2}]\n'],
    ["a banner", "Listening on stdio\n"],
    ["an empty line", "\n"],
    ["an attempt to forge fields", '1,"raw":"forged"\n'],
    ["two values", "{} {}\n"],
    ["invalid UTF-8", Buffer.from([0xff, 0xfe, ...Buffer.from(' {"a":1}\r\n')])],
    ["a truncated sequence", Buffer.from([0x22, 0x61, 0xe2, 0x82, 0x62, 0x22, 0x0a])],
    ["a lone high surrogate escape", '{"text":"\\ud83d"}\n'],
    ["a lone low surrogate escape", '{"text":"\\ude00x"}\n'],
    ["a lone surrogate in a key", '{"\\ud800":1}\n'],
    ["a surrogate pair as escapes", '{"e":"\\ud83d\\ude00","n":1e308}\n'],
    ["a number past f64", '{"n":1e400}\n'],
    ["a byte-order mark", "\uFEFF{}\n"],
    ["a bare CR before CRLF", "\r\r\n"],
    ["a last line ending in a bare CR", "not json\r"],
    ["a control character in a string", '{"a":"x\ty"}\n'],
    ["escapes of every kind", '"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041"\n'],
    ["a leading zero", "01\n"],
    ["a trailing comma", "[1,]\n"],
    ["only whitespace", " \t \n"],
    ["an empty last line", ""],
    ["scalars", "true\n"],
    ["a string with a quote in raw text", 'say "hi"\tnow\n'],
  ];
  for (const [what, line] of vectors) {
    it(`logs ${what} as the whole line is logged, however it is cut`, () => {
      everyCut(typeof line === "string" ? Buffer.from(line) : line);
    });
  }

  it("logs nesting deeper than 126 levels as raw and 126 as a message, as the whole line", () => {
    const deep = (n: number) => Buffer.from("[".repeat(n) + "]".repeat(n) + "\n");
    for (const n of [125, 126, 127, 200]) same(deep(n), [n, n + 3, 2 * n]);
  });

  it("forces raw when asked, in pieces too", () => {
    same(Buffer.from('{"a":1}\n'), [3], true);
  });

  it("logs a multi-megabyte message verbatim without joining it", () => {
    const text = `{"jsonrpc":"2.0","id":9,"result":{"text":"${"é😀x".repeat(400_000)}"}}`;
    const line = Buffer.from(`${text}\n`);
    const cuts = Array.from({ length: 40 }, (_, i) => Math.floor((i * line.length) / 40) + 1);
    const parts = formatPieceEntry(3, "server", cut(line, cuts));
    assert.ok(parts.length > 40, "the entry is the pieces, not one joined buffer");
    assert.equal(Buffer.concat(parts).toString("utf8"), `{"t_ms":3,"from":"server","message":${text}}\n`);
  });

  it("agrees with the whole line on JSON, near-JSON and arbitrary bytes cut anywhere (property)", () => {
    const jsonText = jsonLines(["", " ", "\t", "\r\n", "  \n"], 4);
    const mutated = mutatedLines(jsonText);
    const escapes = fc
      .array(fc.constantFrom('\\ud83d', '\\ude00', '\\ud83d\\ude00', "a", "é", "😀", '\\"', "\\n", "1e400"), { maxLength: 8 })
      .map((xs) => Buffer.from(`{"k":"${xs.join("")}","n":${xs.includes("1e400") ? "1e400" : "1"}}\n`));
    const bytes = fc.uint8Array({ maxLength: 64 }).map((u) => Buffer.from(u));
    const line = fc.oneof(jsonText, mutated, escapes, bytes);
    fc.assert(
      fc.property(line, fc.array(fc.nat({ max: 300 }), { maxLength: 6 }), fc.boolean(), (b, cuts, forceRaw) => {
        same(b, cuts, forceRaw);
      }),
      { numRuns: 3000 },
    );
  });
});
