import assert from "node:assert/strict";
import { classifyLine, formatEntry } from "../../lib/record/log-entry.js";

const entry = (line: string | Buffer, from: "client" | "server" = "client", t = 5) =>
  formatEntry(t, from, typeof line === "string" ? Buffer.from(line) : line).toString("utf8");

describe("log entries", () => {
  it("keeps a JSON message verbatim, minus the line end and surrounding whitespace", () => {
    assert.equal(
      entry(' {"jsonrpc":"2.0","id":1,"method":"ping"}\r\n'),
      '{"t_ms":5,"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}\n',
    );
  });

  it("never re-serializes: key order, number spelling and non-ASCII stay as sent", () => {
    const text = '{"z":1.50,"a":"café","batch":[1e3]}';
    const line = entry(`${text}\n`, "server", 12);
    assert.equal(line, `{"t_ms":12,"from":"server","message":${text}}\n`);
    assert.deepEqual((JSON.parse(line) as Record<string, unknown>)["message"], { z: 1.5, a: "café", batch: [1000] });
  });

  it("logs a batch (a JSON array) as one message", () => {
    assert.equal(entry('[{"a":1},{"b":2}]\n'), '{"t_ms":5,"from":"client","message":[{"a":1},{"b":2}]}\n');
  });

  const rawCases: Array<[string, string | Buffer, string]> = [
    ["a banner", "Listening on stdio\n", "Listening on stdio"],
    ["an empty line", "\n", ""],
    ["an attempt to forge fields", '1,"raw":"forged"\n', '1,"raw":"forged"'],
    ["two JSON values on one line", "{} {}\n", "{} {}"],
    ["invalid UTF-8", Buffer.from([0xff, 0xfe, ...Buffer.from(" not UTF-8\r\n")]), "\uFFFD\uFFFD not UTF-8"],
    ["a lone surrogate escape", '{"text":"\\ud83d"}\n', '{"text":"\\ud83d"}'],
    ["a number past f64", '{"n":1e400}\n', '{"n":1e400}'],
    ["a byte-order mark", "\uFEFF{}\n", "\uFEFF{}"],
    ["other whitespace kept", "  not json \t\n", "  not json \t"],
    // Only `\n` or `\r\n` ends a line: a `\r` no `\n` follows was sent, and is kept.
    ["an empty line ended by CRLF", "\r\n", ""],
    ["a last line that is a bare CR", "\r", "\r"],
    ["a bare CR before CRLF", "\r\r\n", "\r"],
    ["a last line ending in a bare CR", "not json\r", "not json\r"],
    ["an empty last line", "", ""],
  ];
  for (const [what, line, text] of rawCases) {
    it(`logs ${what} as raw text`, () => {
      const got = JSON.parse(entry(line)) as Record<string, unknown>;
      assert.deepEqual(got, { t_ms: 5, from: "client", raw: text });
      assert.ok(!("message" in got));
    });
  }

  it("replaces each invalid UTF-8 sequence by U+FFFD the WHATWG way (maximal subparts)", () => {
    // E2 82 is a truncated 3-byte sequence: one U+FFFD; C0 is never valid: one each.
    const c = classifyLine(Buffer.from([0x61, 0xe2, 0x82, 0x62, 0xc0, 0xaf, 0x0a]));
    assert.deepEqual(c, { kind: "raw", text: "a\uFFFDb\uFFFD\uFFFD" });
  });

  it("logs nesting deeper than 126 levels as raw, and 126 levels as a message", () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    assert.equal(classifyLine(Buffer.from(deep(200) + "\n")).kind, "raw");
    assert.equal(classifyLine(Buffer.from(deep(127) + "\n")).kind, "raw");
    assert.equal(classifyLine(Buffer.from(deep(126) + "\n")).kind, "message");
    // Many brackets side by side are not depth.
    assert.equal(classifyLine(Buffer.from(`[${Array(300).fill("[]").join(",")}]\n`)).kind, "message");
  });

  it("accepts a well-formed surrogate pair and large but finite numbers", () => {
    assert.equal(classifyLine(Buffer.from('{"e":"\\ud83d\\ude00","n":1e308}\n')).kind, "message");
  });

  it("escapes raw text as standard JSON", () => {
    assert.equal(entry('say "hi"\tnow\n'), '{"t_ms":5,"from":"client","raw":"say \\"hi\\"\\tnow"}\n');
  });
});
