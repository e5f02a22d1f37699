import assert from "node:assert/strict";
import { parseJson } from "../../lib/procedure/json-parse.js";
import type { JsonObject } from "../../lib/procedure/json.js";
import { runJson, runSummary, verdictMeaning } from "../../lib/procedure/output.js";

describe("procedure output", () => {
  it("says what each verdict means", () => {
    assert.equal(verdictMeaning("resolved"), "resolved by its own check");
    assert.equal(verdictMeaning("transferred"), "transferred to a person");
    assert.equal(verdictMeaning("hand_back"), "handed back: its check failed");
    assert.equal(runSummary({ calls: [], check: null, verdict: "hand_back" }), "stretto-procedure: 0 calls, handed back: its check failed\n");
  });

  it("prints calls, check and verdict in that order; arguments keep their values, keys sorted", () => {
    const args = parseJson('{"z": 1, "gb_amount": 2, "apn": {"b": null, "a": [1.5, 2.0]}, "line_id": "L1"}') as JsonObject;
    const text = runJson({
      calls: [
        { tool: "refuel_data", arguments: args, failed: true },
        { tool: "check_status_bar", arguments: new Map(), failed: false },
      ],
      check: ["check_status_bar", "Status Bar: 📶⁴ \"Excellent\""],
      verdict: "resolved",
    });
    assert.equal(
      text,
      [
        "{",
        '  "calls": [',
        "    {",
        '      "tool": "refuel_data",',
        '      "arguments": {',
        '        "apn": {',
        '          "a": [',
        "            1.5,",
        "            2.0",
        "          ],",
        '          "b": null',
        "        },",
        '        "gb_amount": 2,',
        '        "line_id": "L1",',
        '        "z": 1',
        "      },",
        '      "failed": true',
        "    },",
        "    {",
        '      "tool": "check_status_bar",',
        '      "arguments": {},',
        '      "failed": false',
        "    }",
        "  ],",
        '  "check": [',
        '    "check_status_bar",',
        '    "Status Bar: 📶⁴ \\"Excellent\\""',
        "  ],",
        '  "verdict": "resolved"',
        "}",
        "",
      ].join("\n"),
    );
    assert.equal(runJson({ calls: [], check: null, verdict: "transferred" }), '{\n  "calls": [],\n  "check": null,\n  "verdict": "transferred"\n}\n');
  });
});
