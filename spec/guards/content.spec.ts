/**
 * A result's content as the rules read it (`parseContent`) skips the parse of text that
 * cannot be JSON by its first character; what it answers must be what a parse, and the
 * trimmed text where the parse fails, would answer.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseContent, trimWhiteSpace } from "../../lib/guards/content.js";
import type { Json } from "../../lib/trace/json.js";

/** The plain definition: JSON when it parses, else the text trimmed. */
function plain(content: string): Json {
  try {
    return JSON.parse(content) as Json;
  } catch {
    return trimWhiteSpace(content);
  }
}

const space = fc.constantFrom("", " ", "\t", "\n", "\r", "\u0085", "\u3000", "\ufeff", " \n ");
const content = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.json(),
  fc.constantFrom("", "user_7", "true", "tru", "nul", "-", "-1", "1e400", '"', "[", "{", "14.0", "\u00a0{}"),
);

describe("a result's content as the rules read it", function () {
  it("is the content parsed, or trimmed where it is not JSON, whatever it begins with", function () {
    fc.assert(
      fc.property(space, content, space, (before, text, after) => {
        const c = before + text + after;
        assert.deepStrictEqual(parseContent(c), plain(c));
      }),
      { numRuns: 3000 },
    );
  });
});
