import assert from "node:assert/strict";
import fc from "fast-check";
import { parseResult, resultFeatures, scalarLeaves, textFeatures } from "../../lib/procedure/features.js";
import { compact } from "../../lib/procedure/json.js";
import { parseJson } from "../../lib/procedure/json-parse.js";
import { RunState } from "../../lib/procedure/state.js";
import { sortedJson } from "../../lib/util/sorted-json.js";

/** Tool output as servers write it: JSON of any shape, JSON inside a string, or plain text. */
const content = fc.oneof(
  fc.json(),
  fc.json().map((j) => JSON.stringify(j)),
  fc.string({ unit: "binary" }),
  fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 5 }).map((ls) => ls.map(([k, v]) => `${k}: ${v}`).join("\n")),
);

describe("procedure features (properties)", () => {
  it("any result content parses and yields features without throwing, the same each time", () => {
    fc.assert(
      fc.property(content, fc.boolean(), (text, failed) => {
        const a = resultFeatures(failed ? null : parseResult(text), failed);
        const b = resultFeatures(failed ? null : parseResult(text), failed);
        assert.deepEqual(a, b);
        assert.equal(a[0], failed ? "error" : "error=False");
      }),
      { numRuns: 500 },
    );
  });

  it("a run's feature set depends only on what it took in, not on when", () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.tuple(fc.constantFrom("a", "b"), content, fc.boolean()), { maxLength: 6 }), (ticket, results) => {
        const feed = () => {
          const s = new RunState(ticket, new Set(["no", "no service", "data"]), true);
          for (const [tool, text, failed] of results) s.takeIn(tool, text, failed);
          return [...s.features()].sort();
        };
        assert.deepEqual(feed(), feed());
      }),
      { numRuns: 300 },
    );
  });

  it("no text feature's value holds an ASCII digit, and says-lines are short", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        for (const f of textFeatures(text)) {
          if (f.startsWith("says ")) {
            assert.ok([...f].length <= 65, f);
            assert.ok(!/[0-9]/.test(f), f);
          } else {
            const value = f.slice(f.indexOf("=") + 1);
            assert.ok(!/[0-9]/.test(value), f);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("record features keep integers and drop floats", () => {
    fc.assert(
      fc.property(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), (i, d) => {
        // Written as a float whatever its value: with a fraction or an exponent.
        const written = JSON.stringify(d);
        const text = `{"i":${i},"d":${/[.e]/.test(written) ? written : `${written}.0`}}`;
        const fs = resultFeatures(parseResult(text), false);
        assert.ok(fs.includes(`i=${i}`), text);
        assert.ok(!fs.some((f) => f.startsWith("d=")), text);
      }),
      { numRuns: 300 },
    );
  });

  it("the JSON reader agrees with JSON.parse on what JSON.stringify writes", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        assert.equal(compact(parseJson(text)), sortedJson(JSON.parse(text)));
        assert.doesNotThrow(() => scalarLeaves(parseJson(text)));
      }),
      { numRuns: 500 },
    );
  });
});
