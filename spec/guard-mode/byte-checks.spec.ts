/**
 * The strict check reads a host line's body as text before its byte checks (a CR inside the
 * line, invalid UTF-8), and tells them from the text. Its verdict must be the one the checks
 * give on the bytes, in their order (byte order mark, CR, UTF-8), on lines mixing CRs,
 * invalid and truncated sequences (a CR right after one among them), and U+FFFD written
 * out as valid UTF-8.
 */
import assert from "node:assert/strict";
import { isUtf8 } from "node:buffer";
import fc from "fast-check";
import { checkLine, checkLineIn } from "../../lib/protocol/line-check.js";

/** Which byte check a line fails first, read on its bytes; undefined when it passes them all. */
function byteCheck(line: Buffer): string | undefined {
  // The body ends before a final \n, and before the \r of a final \r\n.
  let end = line.length;
  if (line[end - 1] === 0x0a) {
    end--;
    if (line[end - 1] === 0x0d) end--;
  }
  if (end >= 3 && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) return "byte order mark";
  const cr = line.indexOf(0x0d);
  if (cr !== -1 && cr < end) return "carriage return";
  if (!isUtf8(line)) return "UTF-8";
  return undefined;
}

const part = fc.oneof(
  fc.constantFrom('{"jsonrpc":"2.0","id":1,"method":"ping"}', '"a"', "[", "]", ",", " ", "é", "\u{1f600}", "\ufffd").map((s) => Buffer.from(s)),
  fc.constantFrom([0x0d], [0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0xc0, 0x80], [0x80], [0xef, 0xbb, 0xbf]).map((b) => Buffer.from(b)),
);
const line = fc
  .tuple(fc.array(part, { maxLength: 8 }), fc.constantFrom("\n", "\r\n", "", "\r"))
  .map(([parts, ending]) => Buffer.concat([...parts, Buffer.from(ending)]));

describe("the strict check's byte checks", () => {
  it("refuse what the bytes show, in the bytes' order, and pass what they pass (3,000 lines)", () => {
    fc.assert(
      fc.property(line, (l) => {
        const expected = byteCheck(l);
        const check = checkLine(l);
        const failed = check.ok ? undefined : (/byte order mark|carriage return|UTF-8/.exec(check.why)?.[0] ?? undefined);
        assert.equal(failed, expected, JSON.stringify([...l]));
      }),
      { numRuns: 3000, seed: 20261203 },
    );
  });

  it("give a line read where it lies in a read the verdict they give its own bytes (3,000 lines)", () => {
    // Around the line, bytes that would change a verdict were they taken for the line's: a byte
    // order mark, CRs, a newline, invalid UTF-8.
    const around = fc.array(fc.constantFrom([0xef, 0xbb, 0xbf], [0x0d], [0x0a], [0xff], [0x7b], [0x22]), { maxLength: 4 }).map((bs) => Buffer.from(bs.flat()));
    fc.assert(
      fc.property(around, line, around, (before, l, after) => {
        const read = Buffer.concat([before, l, after]);
        assert.deepStrictEqual(checkLineIn(read, before.length, before.length + l.length), checkLine(l), JSON.stringify([...read]));
      }),
      { numRuns: 3000, seed: 20261204 },
    );
  });

  it("passes a line whose text holds U+FFFD written out as valid UTF-8", () => {
    const check = checkLine(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"\ufffd"}}\n'));
    assert.ok(check.ok);
  });
});
