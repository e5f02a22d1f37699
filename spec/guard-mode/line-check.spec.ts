/** The strict check a host line passes in guard mode, on fixed vectors. */
import assert from "node:assert/strict";
import { constants } from "node:buffer";
import { checkLine, type LineCheck } from "../../lib/protocol/line-check.js";

const line = (...parts: Array<string | number[]>) => Buffer.concat([...parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))), Buffer.from("\n")]);
const refused = (c: LineCheck) => {
  assert.equal(c.ok, false, "refused");
  return c;
};
const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}';

describe("the strict line check", () => {
  it("admits a request, a notification, a response and a batch, keeping each message's exact text and id", () => {
    const c = checkLine(line(`[ ${PING} , {"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"a","result":{}} ]`));
    assert.ok(c.ok);
    assert.equal(c.batch, true);
    assert.deepEqual(
      c.messages.map((m) => [m.text, m.idText, m.method]),
      [
        [PING, "1", "ping"],
        ['{"jsonrpc":"2.0","method":"notifications/initialized"}', undefined, "notifications/initialized"],
        ['{"jsonrpc":"2.0","id":"a","result":{}}', '"a"', undefined],
      ],
    );
  });

  it("keeps long integers, exponents and escapes in ids as written", () => {
    for (const id of ["9007199254740993", "1e2", "-0", '"\\u0061"', "2.5"]) {
      const c = checkLine(line(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`));
      assert.ok(c.ok, id);
      assert.equal(c.messages[0]!.idText, id);
    }
  });

  it("admits a CRLF line ending, and nothing else with a carriage return", () => {
    assert.ok(checkLine(Buffer.from(`${PING}\r\n`)).ok);
    assert.equal(refused(checkLine(Buffer.from(`${PING}\r\r\n`))).code, -32700);
    assert.equal(refused(checkLine(Buffer.from(`${PING}\r`))).code, -32700, "a last line ending in a bare CR");
    const hidden = refused(checkLine(line(`${PING}\r{"jsonrpc":"2.0","id":2,"method":"tools/call"}`)));
    assert.deepEqual(hidden.idTexts, ["1", "2"], "both messages' ids are read, to answer them");
  });

  const cases: Array<[string, Buffer, -32700 | -32600, RegExp]> = [
    ["invalid UTF-8", line('{"jsonrpc":"2.0","id":3,"method":"ping","p":"', [0xc3], '"}'), -32700, /not valid UTF-8/],
    ["a byte order mark", line([0xef, 0xbb, 0xbf], PING), -32700, /byte order mark/],
    ["NaN", line('{"jsonrpc":"2.0","id":3,"method":"ping","p":NaN}'), -32700, /not JSON: an invalid symbol at character 45/],
    ["a comment", line(`${PING}/**/`), -32700, /not JSON/],
    ["two values", line(`${PING}${PING}`), -32700, /text after the value/],
    ["a trailing comma", line('{"jsonrpc":"2.0","id":3,}'), -32700, /not JSON/],
    ["an empty line", line(""), -32700, /not JSON/],
    ["a key twice", line('{"jsonrpc":"2.0","id":3,"method":"ping","method":"x"}'), -32600, /the key "method" appears twice/],
    ["a key twice through an escape", line('{"jsonrpc":"2.0","id":3,"method":"ping","m\\u0065thod":"x"}'), -32600, /appears twice/],
    ["a number past a double", line('{"jsonrpc":"2.0","id":3,"method":"ping","p":1e400}'), -32600, /too large for a double/],
    ["a lone surrogate", line('{"jsonrpc":"2.0","id":3,"method":"ping","p":"\\ud800"}'), -32600, /lone surrogate/],
    ["an object id", line('{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}'), -32600, /the id \{"n":1\} is not a string or a number/],
    ["a request without an id", line('{"jsonrpc":"2.0","method":"tools/call"}'), -32600, /a tools\/call request without an id/],
    ["a method that is not a string", line('{"jsonrpc":"2.0","id":3,"method":7}'), -32600, /method is not a string/],
    ["a nested batch", line(`[[${PING}]]`), -32600, /must be a JSON object/],
    ["an empty batch", line("[]"), -32600, /an empty batch/],
    ["deep nesting", line(`{"jsonrpc":"2.0","id":3,"method":"ping","p":${"[".repeat(200)}${"]".repeat(200)}}`), -32700, /nests too deeply/],
    ["very deep nesting", line(`{"id":3,"p":${"[".repeat(100_000)}${"]".repeat(100_000)}}`), -32700, /nests too deeply/],
  ];
  for (const [name, bytes, code, why] of cases) {
    it(`refuses ${name} (${code})`, () => {
      const c = refused(checkLine(bytes));
      assert.equal(c.code, code);
      assert.match(c.why, why);
    });
  }

  it("reads the ids of a refused line to answer them, leniently, but never an id that is not a string or a number", () => {
    assert.deepEqual(refused(checkLine(line('{"jsonrpc":"2.0","id":5,"p":NaN}'))).idTexts, ["5"]);
    assert.deepEqual(refused(checkLine(line('{"id":6,"p":"', [0xff], '"}'))).idTexts, ["6"]);
    assert.deepEqual(refused(checkLine(line([0xef, 0xbb, 0xbf], '{"id":"x"}'))).idTexts, ['"x"']);
    assert.deepEqual(refused(checkLine(line('{"id":true,"method":"tools/call"}'))).idTexts, []);
    const batch = refused(checkLine(line('[{"id":1,"method":"ping"},{"id":2,"method":"ping","id":3}]')));
    assert.equal(batch.batch, true);
    assert.deepEqual(batch.idTexts, ["1", "2", "3"]);
  });

  it("refuses a line longer than the longest string the runtime can hold, without reading it", () => {
    const huge = Buffer.alloc(constants.MAX_STRING_LENGTH + 2, 0x20);
    huge[huge.length - 1] = 0x0a;
    const c = refused(checkLine(huge));
    assert.equal(c.code, -32700);
    assert.match(c.why, /too long to check/);
  });
});
