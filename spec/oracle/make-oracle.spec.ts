import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AnswerCache,
  isOracleKind,
  makeOracle,
  ORACLE_KINDS,
  requestKey,
  type OracleRequest,
  type OracleResponse,
} from "../../lib/oracle/index.js";

const REQUEST: OracleRequest = { model: "jev-latest", state: null, questions: { q: { type: "noul", instructions: "?" } } };

describe("making the oracle from --oracle and --oracle-cache", () => {
  let home = "";
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "stretto-home-"));
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
  });

  it("knows the three kinds", () => {
    assert.deepEqual(ORACLE_KINDS, ["jev", "replay", "mock"]);
    assert.ok(isOracleKind("replay"));
    assert.equal(isOracleKind("openai"), false);
  });

  it("defaults to jev over ~/.stretto/oracle-cache, ~ expanded", () => {
    const made = makeOracle({}, { env: { HOME: home, TYPESAFE_API_KEY: "k" } });
    assert.equal(made.oracle.kind, "jev");
    assert.equal(made.cacheDir, join(home, ".stretto/oracle-cache"));
    assert.equal(made.notice, undefined);
  });

  it("expands ~ in --oracle-cache, and replay answers from there or fails a miss with its key", async () => {
    const made = makeOracle({ kind: "replay", cache: "~/answers" }, { env: { HOME: home } });
    assert.equal(made.oracle.kind, "replay");
    assert.equal(made.cacheDir, join(home, "answers"));
    assert.equal(made.notice, undefined);
    await assert.rejects(made.oracle.ask(REQUEST), { message: `replay cache miss for request ${requestKey(REQUEST)}` });
    const answer: OracleResponse = { model: "jev-1.13.0", answers: { q: { type: "noul", noul: 1 } }, usage: { input_tokens: 0, output_tokens: 0 } };
    await new AnswerCache(join(home, "answers")).write(requestKey(REQUEST), answer);
    assert.deepEqual(await made.oracle.ask(REQUEST), answer);
  });

  it("says once when SSL_CERT_FILE cannot be read, and is built all the same", () => {
    const made = makeOracle({ kind: "jev", cache: home }, { env: { TYPESAFE_API_KEY: "k", SSL_CERT_FILE: "/no/such.pem" } });
    assert.equal(made.oracle.kind, "jev");
    assert.equal(made.notice, "reading SSL_CERT_FILE /no/such.pem: No such file or directory (os error 2)");
  });
});
