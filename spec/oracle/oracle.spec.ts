import assert from "node:assert/strict";
import { defaultModel, noul, parseResponse, type OracleRequest } from "../../lib/oracle/index.js";

describe("the oracle's request and answer JSON", () => {
  it("round-trips the documented example", () => {
    // The request and response from TypeSafe's API reference.
    const text = `{
      "state": "Help! My payouts have been failing for 3 days.",
      "model": "jev-latest",
      "questions": {
        "is_urgent": {
          "type": "noul",
          "instructions": "Does this convey urgency?",
          "criteria": {"true": "Explicitly time-sensitive", "false": "No urgency expressed"}
        }
      }
    }`;
    const request = JSON.parse(text) as OracleRequest;
    assert.equal(request.questions["is_urgent"]?.type, "noul");
    assert.deepEqual(JSON.parse(JSON.stringify(request)), request);

    const response = parseResponse(`{
      "model": "jev-1.13.0",
      "answers": {"is_urgent": {"type": "noul", "noul": 0.95}},
      "usage": {"input_tokens": 296, "output_tokens": 20}
    }`);
    assert.deepEqual(response.answers["is_urgent"], { type: "noul", noul: 0.95 });
    assert.equal(response.usage.input_tokens, 296);
    assert.deepEqual(parseResponse(JSON.stringify(response)), response);
  });

  it("parses choice and score answers, and zero usage when it is missing", () => {
    const response = parseResponse(`{
      "model": "jev-1.13.0",
      "answers": {
        "dept": {"type": "choice", "choice": "billing", "probabilities": {"billing": 0.9, "sales": 0.1}, "confidence": 0.8},
        "sev": {"type": "score", "score": 1.2, "legend": {"0": "Cosmetic"}, "probabilities": {"0": 0.1, "1": 0.6, "2": 0.3}, "confidence": 0.5},
        "plain": {"type": "score", "score": 0, "probabilities": {"0": 1}, "confidence": 1}
      }
    }`);
    assert.deepEqual(response.answers["dept"], {
      type: "choice",
      choice: "billing",
      probabilities: { billing: 0.9, sales: 0.1 },
      confidence: 0.8,
    });
    assert.equal(response.answers["sev"]?.type, "score");
    assert.deepEqual(response.answers["sev"]?.type === "score" && response.answers["sev"].legend, { "0": "Cosmetic" });
    assert.equal(response.answers["plain"]?.type === "score" && response.answers["plain"].legend, null);
    assert.deepEqual(response.usage, { input_tokens: 0, output_tokens: 0 });
  });

  it("rejects what is not an answer, saying what", () => {
    assert.throws(() => parseResponse("[]"), { message: "expected an object" });
    assert.throws(() => parseResponse('{"answers":{}}'), { message: 'missing or non-string "model"' });
    assert.throws(() => parseResponse('{"model":"m","answers":{"a":{"type":"yesno"}}}'), {
      message: 'answer "a": unknown type "yesno"',
    });
    assert.throws(() => parseResponse('{"model":"m","answers":{"a":{"type":"choice","choice":"x","confidence":1}}}'), {
      message: 'answer "a": "probabilities" is not an object of numbers',
    });
    assert.throws(() => parseResponse('{"model":"m","answers":{},"usage":{"input_tokens":-1}}'), {
      message: '"usage.input_tokens" is not a count',
    });
  });

  it("reads a yes/no answer by question id, and nothing else", () => {
    const response = parseResponse(
      '{"model":"m","answers":{"confirmed":{"type":"noul","noul":0.15},"c":{"type":"choice","choice":"x","probabilities":{"x":1},"confidence":1}}}',
    );
    assert.equal(noul(response, "confirmed"), 0.15);
    assert.equal(noul(response, "c"), undefined);
    assert.equal(noul(response, "missing"), undefined);
    assert.equal(noul(response, "toString"), undefined);
  });

  it("asks for TYPESAFE_DEFAULT_MODEL, else jev-latest", () => {
    assert.equal(defaultModel({}), "jev-latest");
    assert.equal(defaultModel({ TYPESAFE_DEFAULT_MODEL: "" }), "jev-latest");
    assert.equal(defaultModel({ TYPESAFE_DEFAULT_MODEL: "jev-1.13.0" }), "jev-1.13.0");
  });
});
