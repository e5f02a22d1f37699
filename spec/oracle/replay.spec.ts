import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AnswerCache,
  CachedOracle,
  MockOracle,
  OracleError,
  replayOracle,
  requestKey,
  type Oracle,
  type OracleRequest,
  type OracleResponse,
} from "../../lib/oracle/index.js";

const REQUEST: OracleRequest = {
  model: "jev-latest",
  state: { ticket: "refund please" },
  questions: { route: { type: "choice", instructions: "Which team?", criteria: { billing: "Money", tech: "Bugs" } } },
};

/** Counts its asks; answers like a mock, or fails when told to. */
class Counting implements Oracle {
  readonly kind = "jev" as const;
  calls = 0;
  failWith: string | undefined;
  private readonly mock = new MockOracle({ confidence: 0.7, noul: 0.5 });
  ask(request: OracleRequest): Promise<OracleResponse> {
    this.calls++;
    if (this.failWith !== undefined) return Promise.reject(new OracleError(this.failWith));
    return this.mock.ask(request);
  }
}

describe("the cache in front of an oracle, and replay (the cache alone)", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "stretto-replay-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("pays once and replays offline", async () => {
    const inner = new Counting();
    const live = new CachedOracle("jev", new AnswerCache(dir), inner);
    const first = await live.ask(REQUEST);
    const second = await live.ask(REQUEST);
    assert.deepEqual(second, first);
    assert.equal(inner.calls, 1);
    assert.equal(first.answers["route"]?.type, "choice");

    const offline = replayOracle(dir);
    assert.equal(offline.kind, "replay");
    assert.deepEqual(await offline.ask(REQUEST), first);
  });

  it("fails a miss with the request's key", async () => {
    const other: OracleRequest = { ...REQUEST, state: "something else" };
    await assert.rejects(replayOracle(dir).ask(other), {
      name: "OracleError",
      message: `replay cache miss for request ${requestKey(other)}`,
    });
  });

  it("returns a hit as it is, whatever model answered it", async () => {
    const stored: OracleResponse = {
      model: "jev-0.9",
      answers: { route: { type: "choice", choice: "tech", probabilities: { billing: 0.1, tech: 0.9 }, confidence: 0.8 } },
      usage: { input_tokens: 1, output_tokens: 2 },
    };
    await new AnswerCache(dir).write(requestKey(REQUEST), stored);
    assert.deepEqual(await replayOracle(dir).ask(REQUEST), stored);
  });

  it("caches nothing when the inner oracle fails, and passes its reason on", async () => {
    const inner = new Counting();
    inner.failWith = "TypeSafe returned 400 Bad Request: no";
    const live = new CachedOracle("jev", new AnswerCache(dir), inner);
    await assert.rejects(live.ask(REQUEST), { message: "TypeSafe returned 400 Bad Request: no" });
    inner.failWith = undefined;
    await live.ask(REQUEST);
    assert.equal(inner.calls, 2);
  });
});
