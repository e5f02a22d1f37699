import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockOracle, makeOracle, type OracleRequest } from "../../lib/oracle/index.js";

const REQUEST: OracleRequest = {
  model: "jev-latest",
  state: { customer_request: "hello" },
  questions: {
    next: {
      type: "choice",
      instructions: "What does it do next?",
      criteria: { respond: "Hand back.", get_user_details: "Call get_user_details.", Zeta: "Capital first.", get_order_details: "Call it." },
    },
    go_on: { type: "noul", instructions: "Another lookup?", criteria: { true: "yes", false: "no" } },
    bare: { type: "noul", instructions: "No criteria." },
    only: { type: "choice", instructions: "One option.", criteria: { alone: "x" } },
    sev: { type: "score", instructions: "How bad?", criteria: ["none", "some", "much"] },
  },
};

describe("the mock oracle (deterministic, uncached)", () => {
  it("answers yes/no 0.5, the byte-order first option 0.6 with the rest sharing 0.4, scores level 0", async () => {
    const response = await new MockOracle().ask(REQUEST);
    assert.deepEqual(response, {
      model: "mock",
      answers: {
        bare: { type: "noul", noul: 0.5 },
        go_on: { type: "noul", noul: 0.5 },
        next: {
          type: "choice",
          choice: "Zeta",
          probabilities: { Zeta: 0.6, get_order_details: (1 - 0.6) / 3, get_user_details: (1 - 0.6) / 3, respond: (1 - 0.6) / 3 },
          confidence: 0.6,
        },
        only: { type: "choice", choice: "alone", probabilities: { alone: 0.6 }, confidence: 0.6 },
        sev: { type: "score", score: 0, probabilities: { "0": 1, "1": 0, "2": 0 }, confidence: 1, legend: null },
      },
      usage: { input_tokens: 0, output_tokens: 0 },
    });
    assert.deepEqual(Object.keys(response.answers), ["bare", "go_on", "next", "only", "sev"]);
  });

  it("gives the same answers however often and in whatever order it is asked", async () => {
    const mock = new MockOracle();
    const reversed = JSON.parse(JSON.stringify(REQUEST)) as OracleRequest;
    reversed.questions = Object.fromEntries(Object.entries(REQUEST.questions).reverse());
    const a = JSON.stringify(await mock.ask(REQUEST));
    assert.equal(JSON.stringify(await mock.ask(REQUEST)), a);
    assert.equal(JSON.stringify(await new MockOracle().ask(reversed)), a);
  });

  it("orders options by their UTF-8 bytes, whatever order the request listed them in", async () => {
    const response = await new MockOracle().ask({
      model: "m",
      state: null,
      questions: { c: { type: "choice", instructions: "", criteria: { "\ud83d\ude00": "emoji", "\ufb33": "dalet" } } },
    });
    assert.equal(response.answers["c"]?.type === "choice" && response.answers["c"].choice, "\ufb33");
  });

  it("takes its yes/no probability and confidence as settings", async () => {
    const response = await new MockOracle({ noul: 0.25, confidence: 0.7 }).ask(REQUEST);
    assert.deepEqual(response.answers["go_on"], { type: "noul", noul: 0.25 });
    assert.equal(response.answers["next"]?.type === "choice" && response.answers["next"].confidence, 0.7);
  });

  it("is what --oracle mock builds, with no cache and no notice", async () => {
    const home = mkdtempSync(join(tmpdir(), "stretto-home-"));
    try {
      const made = makeOracle({ kind: "mock" }, { env: { HOME: home } });
      assert.equal(made.oracle.kind, "mock");
      assert.equal(made.cacheDir, undefined);
      assert.equal(made.notice, undefined);
      await made.oracle.ask(REQUEST);
      assert.equal(existsSync(join(home, ".stretto")), false);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
