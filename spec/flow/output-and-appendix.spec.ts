/**
 * Two shortcuts of a flow's run against the plain definitions they replace, fast-check:
 * an output is handed to `JSON.parse` only when its first character can begin JSON
 * (`parseOutput`), and the appendix copies only the path to its new item, not the whole
 * answer (`withAppendix`). Each must give exactly what the plain definition gives.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseOutput } from "../../lib/flow/bind/json-path.js";
import type { Json } from "../../lib/trace/json.js";
import { messageLine } from "../../lib/protocol/compose.js";
import { appendixText, withAppendix, writtenId, type Looked } from "../../lib/plugins/flow/appendix.js";
import { frame } from "../../lib/bus/frame.js";
import { jsonOf, messagesOf } from "../../lib/bus/runtime/json-rpc.js";

/** `parseOutput` as first written: JSON.parse, else the text's lines, else the text. */
function plainParseOutput(content: string): Json {
  try {
    return JSON.parse(content) as Json;
  } catch {
    const lines = content
      .split("\n")
      .map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l).trim())
      .filter((l) => l !== "");
    return lines.length > 1 ? lines : content;
  }
}

/** `withAppendix` as first written: the whole message cloned, the item pushed. */
function plainWithAppendix(message: unknown, looked: readonly Looked[], idText?: string): Buffer | undefined {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return undefined;
  const copy = structuredClone(message) as { result?: unknown };
  const result = copy.result;
  if (result === null || typeof result !== "object" || Array.isArray(result)) return undefined;
  const item = { type: "text", text: appendixText(looked) };
  const r = result as { content?: unknown };
  if (Array.isArray(r.content)) r.content.push(item);
  else r.content = [item];
  return messageLine(copy, idText);
}

const whitespace = fc.constantFrom("", " ", "\t", "\n", "\r\n", "  \n\t");
const outputs = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.tuple(whitespace, fc.jsonValue(), whitespace).map(([a, v, b]) => `${a}${JSON.stringify(v)}${b}`),
  fc.tuple(whitespace, fc.constantFrom("{", "[", '"', "-", "7", "t", "f", "n", "u", "x", "#"), fc.string()).map(([a, c, s]) => `${a}${c}${s}`),
  fc.array(fc.string(), { maxLength: 4 }).map((lines) => lines.join("\n")),
);

describe("a flow's shortcuts against the plain definitions", () => {
  it("parseOutput reads every text as JSON.parse-then-lines does", () => {
    fc.assert(
      fc.property(outputs, (text) => {
        assert.deepEqual(parseOutput(text), plainParseOutput(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("withAppendix writes the bytes a whole copy would, and changes nothing it was given", () => {
    const keys = fc.constantFrom("jsonrpc", "id", "result", "content", "isError", "__proto__", "z", "a");
    const id = fc.constantFrom(1, 7, "a", "aA", 9007199254740992, 1.5);
    // Messages as a server's line parses: JSON.parse keeps `__proto__` as an own key.
    const value = fc.jsonValue({ maxDepth: 3 });
    const result = fc.oneof(
      fc.dictionary(keys, value, { maxKeys: 4 }),
      fc.record({ content: fc.oneof(fc.array(value, { maxLength: 3 }), value), isError: fc.boolean() }),
    );
    const message = fc
      .tuple(fc.dictionary(keys, value, { maxKeys: 3 }), fc.oneof(result, value), fc.boolean(), fc.option(id, { nil: undefined }))
      .map(([rest, r, first, i]) => JSON.parse(JSON.stringify({ ...(i === undefined ? {} : { id: i }), ...(first ? { result: r, ...rest } : { ...rest, result: r }) })) as unknown);
    const looked: fc.Arbitrary<Looked[]> = fc.array(
      fc.record({ tool: fc.string(), arguments: fc.dictionary(fc.string(), value, { maxKeys: 2 }) as fc.Arbitrary<Record<string, Json>>, text: fc.string(), error: fc.boolean() }),
      { minLength: 1, maxLength: 3 },
    );
    // Ids as a server may write them: as JSON writes them or not (every digit of a long integer, an escape, a fraction).
    const idText = fc.option(fc.constantFrom("1", "7", '"a"', "9007199254740993", '"a\\u0041"', "1.0", "1e0"), { nil: undefined });
    fc.assert(
      fc.property(message, looked, idText, (m, l, id) => {
        const before = JSON.stringify(m);
        assert.deepEqual(withAppendix(m, l, id), plainWithAppendix(m, l, id));
        assert.equal(JSON.stringify(m), before);
      }),
      { numRuns: 1000 },
    );
  });

  it("writtenId gives an answer the bytes the strict check's id would, however the line writes its id", () => {
    // Ids as servers write them, at the start or not, once or twice (a line the strict check refuses).
    const idTexts = fc.constantFrom("1", "10", "1.0", "1e0", "-0", '"a"', '"\\u0061"', '"é"', '"stretto-1"');
    const result = '"result":{"content":[{"type":"text","text":"{\\"id\\":1}"}],"isError":false}';
    const shapes = fc.constantFrom(
      (id: string) => `{"id":${id},"jsonrpc":"2.0",${result}}`,
      (id: string) => `{"jsonrpc":"2.0","id":${id},${result}}`,
      (id: string) => `{"jsonrpc":"2.0",${result},"id":${id}}`,
      (id: string) => `{ "id": ${id}, "jsonrpc":"2.0",${result}}`,
      (id: string) => `{"id":${id},"jsonrpc":"2.0",${result},"id":1}`,
      (id: string) => `{"jsonrpc":"2.0","id":${id},"structuredContent":{"id":2},${result}}`,
    );
    const looked: Looked[] = [{ tool: "t", arguments: {}, text: "x", error: false }];
    fc.assert(
      fc.property(idTexts, shapes, (id, shape) => {
        const f = frame("server", 0, Buffer.from(shape(id)));
        const m = jsonOf(f);
        assert.ok(withAppendix(m, looked) !== undefined, "the line is an answer");
        assert.deepEqual(withAppendix(m, looked, writtenId(f, m)), withAppendix(m, looked, messagesOf(f)?.[0]?.idText));
      }),
      { numRuns: 300 },
    );
  });
});

