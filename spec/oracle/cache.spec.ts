import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnswerCache, isRequestKey, requestKey, type OracleRequest, type OracleResponse } from "../../lib/oracle/index.js";

const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

/** The confirmation judge's request, built the way the judge would. */
const JUDGE: OracleRequest = {
  model: "jev-latest",
  state: {
    agent_said_last: "I can cancel order #W7a. Shall I go ahead?",
    customer_replied: "Yes, please.",
    call_about_to_be_made: { tool: "cancel_pending_order", arguments: { order_id: "#W7a", reason: "no longer needed" } },
  },
  questions: {
    confirmed: {
      type: "noul",
      instructions: "Did the customer's reply explicitly agree to this change?",
      criteria: { true: "T", false: "F" },
    },
  },
};

const ANSWER: OracleResponse = {
  model: "jev-1.13.0",
  answers: { confirmed: { type: "noul", noul: 0.92 } },
  usage: { input_tokens: 3, output_tokens: 1 },
};

describe("oracle cache keys: SHA-256 of the request's RFC 8785 JSON", () => {
  it("hashes the canonical text (a fixed vector)", () => {
    const request: OracleRequest = {
      model: "jev-latest",
      state: { b: 1, a: [1.0, "é"] },
      questions: { q: { type: "noul", instructions: "I", criteria: { true: "T", false: "F" } } },
    };
    const canonical =
      '{"model":"jev-latest","questions":{"q":{"criteria":{"false":"F","true":"T"},"instructions":"I","type":"noul"}},"state":{"a":[1,"é"],"b":1}}';
    assert.equal(requestKey(request), sha256(canonical));
    assert.equal(requestKey(request), "223093fb37d6e641b99ae8fec5e07b11e2e8ece5a1a91b13313f083dd13c911c");
  });

  it("sorts keys at every depth by UTF-16 units (😀 before U+FB33, unlike byte order) and writes numbers the ECMAScript way", () => {
    const request: OracleRequest = {
      model: "m",
      state: { "\ufb33": 4, "\u20ac": 1, "\r": 2, "\ud83d\ude00": 3, x: [1e21, 0.000001, -0, 100.0] },
      questions: {},
    };
    const canonical = '{"model":"m","questions":{},"state":{"\\r":2,"x":[1e+21,0.000001,0,100],"€":1,"😀":3,"\ufb33":4}}';
    assert.equal(requestKey(request), sha256(canonical));
  });

  it("does not depend on the order the request was built in, and changes with any content", () => {
    const reordered = JSON.parse(
      '{"questions":{"confirmed":{"criteria":{"false":"F","true":"T"},"instructions":"Did the customer\'s reply explicitly agree to this change?","type":"noul"}},' +
        '"state":{"call_about_to_be_made":{"arguments":{"reason":"no longer needed","order_id":"#W7a"},"tool":"cancel_pending_order"},' +
        '"customer_replied":"Yes, please.","agent_said_last":"I can cancel order #W7a. Shall I go ahead?"},"model":"jev-latest"}',
    ) as OracleRequest;
    assert.equal(requestKey(reordered), requestKey(JUDGE));
    assert.match(requestKey(JUDGE), /^[0-9a-f]{64}$/);
    assert.notEqual(requestKey({ ...JUDGE, model: "jev-1.13.0" }), requestKey(JUDGE));
    const second: OracleRequest = { ...JUDGE, questions: { proposed: { ...JUDGE.questions["confirmed"]! } } };
    assert.notEqual(requestKey(second), requestKey(JUDGE));
  });

  it("accepts only hex keys of 3 or more digits", () => {
    assert.ok(isRequestKey("abc"));
    assert.ok(isRequestKey(requestKey(JUDGE)));
    for (const bad of ["../escape", "ab", "", "ABC", "abg", "ab/cd"]) assert.equal(isRequestKey(bad), false, bad);
  });
});

describe("the answer cache on disk", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "stretto-cache-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps each answer pretty-printed at <key[0..2]>/<key>.json, and nothing else", async () => {
    const cache = new AnswerCache(dir);
    const key = requestKey(JUDGE);
    assert.equal(await cache.read(key), undefined);
    await cache.write(key, ANSWER);
    assert.deepEqual(readdirSync(dir), [key.slice(0, 2)]);
    assert.deepEqual(readdirSync(join(dir, key.slice(0, 2))), [`${key}.json`]);
    assert.equal(readFileSync(cache.pathOf(key), "utf8"), JSON.stringify(ANSWER, null, 2));
    assert.equal(cache.pathOf(key), join(dir, key.slice(0, 2), `${key}.json`));
    assert.deepEqual(await cache.read(key), ANSWER);
  });

  it("refuses a key that could leave the directory", async () => {
    const cache = new AnswerCache(dir);
    assert.throws(() => cache.pathOf("../escape"), { name: "OracleError", message: "not a request key: ../escape" });
    await assert.rejects(cache.write("../escape", ANSWER), { message: "not a request key: ../escape" });
    await assert.rejects(cache.read("../escape"), { message: "not a request key: ../escape" });
  });

  it("replaces a file whole: concurrent writers of one key leave one complete answer and no temp files", async () => {
    const cache = new AnswerCache(dir);
    const key = requestKey(JUDGE);
    const answers = Array.from({ length: 20 }, (_, i): OracleResponse => ({
      ...ANSWER,
      answers: { confirmed: { type: "noul", noul: i / 20 } },
      model: "x".repeat(10_000 * (i % 3)),
    }));
    await Promise.all(answers.map((a) => cache.write(key, a)));
    const stored = await cache.read(key);
    assert.ok(answers.some((a) => JSON.stringify(a) === JSON.stringify(stored)));
    assert.deepEqual(readdirSync(join(dir, key.slice(0, 2))), [`${key}.json`]);
  });

  it("says which file it could not write, and leaves no temp file behind", async () => {
    const cache = new AnswerCache(dir);
    const key = requestKey(JUDGE);
    mkdirSync(cache.pathOf(key), { recursive: true }); // a directory where the answer goes
    await assert.rejects(cache.write(key, ANSWER), {
      name: "OracleError",
      message: `writing ${cache.pathOf(key)}: Is a directory (os error 21)`,
    });
    assert.deepEqual(readdirSync(join(dir, key.slice(0, 2))), [`${key}.json`]);
  });

  it("says which directory it could not make", async () => {
    const file = join(dir, "plain-file");
    writeFileSync(file, "");
    const cache = new AnswerCache(file);
    const key = requestKey(JUDGE);
    await assert.rejects(cache.write(key, ANSWER), {
      message: `creating ${join(file, key.slice(0, 2))}: Not a directory (os error 20)`,
    });
  });

  it("says which cached file is not an answer", async () => {
    const cache = new AnswerCache(dir);
    const key = requestKey(JUDGE);
    mkdirSync(join(dir, key.slice(0, 2)));
    writeFileSync(cache.pathOf(key), '{"model":"m"}');
    await assert.rejects(cache.read(key), { message: `reading ${cache.pathOf(key)}: missing or non-object "answers"` });
  });
});
