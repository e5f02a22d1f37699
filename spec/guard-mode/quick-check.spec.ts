/**
 * The strict check's fast path (`quickScan` after one `JSON.parse`) must give exactly the
 * verdict of the full scan, on every line: the clean ones it decides itself, and everything
 * else it hands on. Drawn from the mutations of a refused call (odd ids, escapes, keys
 * twice, deep nesting, surrogates, long numbers) and from arbitrary JSON values.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkLine, fullCheck } from "../../lib/protocol/line-check.js";
import { refusedCallLine } from "./mutations.js";

/** What the full scan says of a line, run the way `checkLine` runs it after its byte checks. */
function fullVerdict(line: Buffer): ReturnType<typeof checkLine> {
  const check = checkLine(line);
  // The byte checks (BOM, CR, UTF-8, length) come before either scan; past them, compare.
  if (!check.ok && /byte order mark|carriage return|UTF-8|too long/.test(check.why)) return check;
  let body = line;
  if (body.at(-1) === 0x0a) body = body.subarray(0, -1);
  if (body.at(-1) === 0x0d) body = body.subarray(0, -1);
  return fullCheck(body.toString("utf8"));
}

const ID = fc.oneof(fc.integer(), fc.string(), fc.constantFrom("1e2", "-0", "9007199254740993", '"\\u0061"', '"\\ud83d\\ude00"', "[1]", '{"id":2}', "null"));

/** A message with its id written as given, and any JSON values around it. */
const message = fc.record({ id: ID, extra: fc.jsonValue({ maxDepth: 4 }), method: fc.constantFrom("tools/call", "notifications/x", 7) }).map(({ id, extra, method }) => {
  const idText = typeof id === "number" ? String(id) : /^[-\d"[{n]/.test(id) && id !== "" ? id : JSON.stringify(id);
  return `{"jsonrpc":"2.0","id":${idText},"method":${JSON.stringify(method)},"params":${JSON.stringify(extra)}}`;
});
const line = fc
  .oneof(
    message,
    fc.array(message, { maxLength: 3 }).map((ms) => `[${ms.join(" , ")}]`),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.string({ unit: "binary" }),
  )
  .map((text) => Buffer.from(`${text}\n`));

/**
 * Objects written with keys from a small pool, so that a key often comes twice: spelled alike,
 * spelled with an escape (`"\u0061"` is `"a"`), alike but for one character, `__proto__`, the
 * empty key, and enough distinct ones for an object to pass the keys the scan compares.
 */
const KEYS = ['"a"', '"b"', '"ab"', '"ba"', '"\\u0061"', '"a\\""', '"id"', '"__proto__"', '""', ...Array.from({ length: 20 }, (_, k) => `"k${k}"`)];
const keyed = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, fc.constantFrom("1", '"a"', "null", "[]"), tie("object"), tie("array")),
  array: fc.array(tie("value"), { maxLength: 3 }).map((vs) => `[${vs.join(",")}]`),
  object: fc.array(fc.tuple(fc.constantFrom(...KEYS), tie("value")), { maxLength: 20 }).map((kvs) => `{${kvs.map(([k, v]) => `${k}:${String(v)}`).join(",")}}`),
})).object;
const keyedLine = fc
  .tuple(keyed, keyed, fc.boolean())
  .map(([a, b, batch]) => {
    const m = (params: string, id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`;
    return Buffer.from(`${batch ? `[${m(a, 1)},${m(b, 2)}]` : m(a, 1)}\n`);
  });

describe("the strict check's fast path", () => {
  it("gives the full scan's verdict on the mutations of a refused call (600 lines)", () => {
    fc.assert(
      fc.property(refusedCallLine, (bytes) => {
        for (const text of bytes.toString("latin1").split("\n")) {
          const l = Buffer.from(`${text}\n`, "latin1");
          assert.deepStrictEqual(checkLine(l), fullVerdict(l));
        }
      }),
      { numRuns: 600, seed: 20261203 },
    );
  });

  it("gives the full scan's verdict on messages, batches and arbitrary values (2,000 lines)", () => {
    fc.assert(
      fc.property(line, (l) => {
        assert.deepStrictEqual(checkLine(l), fullVerdict(l));
      }),
      { numRuns: 2000, seed: 20261203 },
    );
  });

  it("gives the full scan's verdict on objects whose keys come twice, written alike or not (2,000 lines)", () => {
    fc.assert(
      fc.property(keyedLine, (l) => {
        assert.deepStrictEqual(checkLine(l), fullVerdict(l));
      }),
      { numRuns: 2000, seed: 20261204 },
    );
  });

  it("refuses a key written twice and passes keys that only look alike, in any object of the line", () => {
    const call = (args: string) => Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":${args}}}\n`);
    const seventeen = Array.from({ length: 17 }, (_, k) => `"k${k}":${k}`).join(",");
    const twice = ['{"a":1,"b":2,"a":3}', '{"a":1,"\\u0061":2}', `{${seventeen},"k3":3}`, `{${seventeen},"k16":3}`, '{"x":{"a":1,"a":2}}', '{"x":[{"b":1},{"c":1,"c":2}]}'];
    for (const args of twice) {
      const check = checkLine(call(args));
      assert.ok(!check.ok && check.code === -32600 && /appears twice/.test(check.why), args);
    }
    const alike = ['{"ab":1,"ba":2,"aa":3,"bb":4}', '{"x":{"a":1},"a":2}', '{"a":{"a":{"a":1}},"b":{"a":1}}', '{"x":[{"a":1},{"a":1}],"a":1}', `{${seventeen}}`, '{"k":1,"k ":2,"k\\"":3}'];
    for (const args of alike) assert.ok(checkLine(call(args)).ok, args);
  });

  it("reads a value already parsed instead of parsing again, with the same verdict", () => {
    const text = '[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]';
    const parsed: unknown = JSON.parse(text);
    const check = checkLine(Buffer.from(`${text}\n`), parsed);
    assert.deepStrictEqual(check, checkLine(Buffer.from(`${text}\n`)));
    assert.ok(check.ok);
    assert.equal(check.messages[0]!.value, (parsed as unknown[])[0], "the value given is the one judged");
  });
});
