import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AnswerCache,
  JevClient,
  makeOracle,
  OracleError,
  requestKey,
  type OracleRequest,
  type OracleResponse,
} from "../../lib/oracle/index.js";
import { FakeJev } from "../../fixtures/http/fake-jev.js";

const REQUEST: OracleRequest = {
  model: "jev-latest",
  state: { customer_request: "Where is my order #W7?", latest_results: [] },
  questions: {
    go_on: {
      type: "noul",
      instructions: "Does it make another lookup now?",
      criteria: { true: "It still needs information.", false: "It has what it needs." },
    },
  },
};

const ANSWER: OracleResponse = {
  model: "jev-1.13.0",
  answers: { go_on: { type: "noul", noul: 0.8 } },
  usage: { input_tokens: 296, output_tokens: 20 },
};

const OK = { status: 200, body: JSON.stringify(ANSWER) };

describe("the jev oracle against a local fake Jev server", () => {
  const jev = new FakeJev();
  let base = "";
  let dir = "";
  let sleeps: number[] = [];
  const sleep = (ms: number): Promise<void> => {
    sleeps.push(ms);
    return Promise.resolve();
  };
  /** A jev oracle reaching the fake through TYPESAFE_BASE_URL, caching in a fresh directory. */
  const oracle = (env: NodeJS.ProcessEnv = { TYPESAFE_API_KEY: "sk-test" }) =>
    makeOracle({ kind: "jev", cache: dir }, { env: { TYPESAFE_BASE_URL: base, ...env }, sleep });

  before(async () => {
    base = await jev.start();
  });
  after(async () => {
    await jev.stop();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "stretto-oracle-"));
    sleeps = [];
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("POSTs the request to {TYPESAFE_BASE_URL}/v1/systemone with the bearer key, and caches the answer", async () => {
    jev.script(OK);
    const made = oracle();
    assert.equal(made.notice, undefined);
    assert.deepEqual(await made.oracle.ask(REQUEST), ANSWER);
    assert.equal(jev.received.length, 1);
    const got = jev.received[0]!;
    assert.equal(got.method, "POST");
    assert.equal(got.path, "/v1/systemone");
    assert.equal(got.headers["authorization"], "Bearer sk-test");
    assert.equal(got.headers["content-type"], "application/json");
    assert.equal(got.body, JSON.stringify(REQUEST));
    assert.deepEqual(JSON.parse(got.body), REQUEST);
    assert.deepEqual(sleeps, []);
    const key = requestKey(REQUEST);
    const file = join(dir, key.slice(0, 2), `${key}.json`);
    assert.equal(readFileSync(file, "utf8"), JSON.stringify(ANSWER, null, 2));
  });

  it("trims a trailing / from TYPESAFE_BASE_URL", async () => {
    jev.script(OK);
    const made = makeOracle({ kind: "jev", cache: dir }, { env: { TYPESAFE_BASE_URL: `${base}//`, TYPESAFE_API_KEY: "k" }, sleep });
    await made.oracle.ask(REQUEST);
    assert.equal(jev.received[0]!.path, "/v1/systemone");
  });

  it("asks Jev once and answers the same question again from the cache", async () => {
    jev.script(OK);
    const made = oracle();
    const first = await made.oracle.ask(REQUEST);
    const second = await made.oracle.ask(structuredClone(REQUEST));
    assert.deepEqual(second, first);
    assert.equal(jev.received.length, 1);
  });

  it("retries a 503 after 1 and 2 s, then takes the answer", async () => {
    jev.script({ status: 503, body: "busy" }, { status: 503, body: "busy" }, OK);
    assert.deepEqual(await oracle().oracle.ask(REQUEST), ANSWER);
    assert.equal(jev.received.length, 3);
    assert.deepEqual(sleeps, [1000, 2000]);
    for (const r of jev.received) assert.equal(r.body, JSON.stringify(REQUEST));
  });

  for (const status of [429, 500, 502, 504, 529]) {
    it(`retries ${status} too`, async () => {
      jev.script({ status, body: "again" }, OK);
      assert.deepEqual(await oracle().oracle.ask(REQUEST), ANSWER);
      assert.equal(jev.received.length, 2);
      assert.deepEqual(sleeps, [1000]);
    });
  }

  it("gives up after 4 retries (1, 2, 4, 8 s) with the last status and body, and caches nothing", async () => {
    jev.script({ status: 503, body: '{"error":"overloaded"}' });
    const made = oracle();
    await assert.rejects(made.oracle.ask(REQUEST), {
      name: "OracleError",
      message: 'TypeSafe returned 503 Service Unavailable: {"error":"overloaded"}',
    });
    assert.equal(jev.received.length, 5);
    assert.deepEqual(sleeps, [1000, 2000, 4000, 8000]);
    assert.equal(await new AnswerCache(dir).read(requestKey(REQUEST)), undefined);
  });

  it("prints a status Rust has no reason for the way Rust does", async () => {
    jev.script({ status: 529, body: "overloaded" });
    await assert.rejects(oracle().oracle.ask(REQUEST), { message: "TypeSafe returned 529 <unknown status code>: overloaded" });
    assert.equal(jev.received.length, 5);
  });

  for (const [status, text] of [
    [400, "400 Bad Request"],
    [401, "401 Unauthorized"],
    [404, "404 Not Found"],
  ] as const) {
    it(`fails at once on ${status}, which is not retried`, async () => {
      jev.script({ status, body: "no such thing" }, OK);
      await assert.rejects(oracle().oracle.ask(REQUEST), { message: `TypeSafe returned ${text}: no such thing` });
      assert.equal(jev.received.length, 1);
      assert.deepEqual(sleeps, []);
    });
  }

  it("retries a dropped connection", async () => {
    jev.script("reset", OK);
    assert.deepEqual(await oracle().oracle.ask(REQUEST), ANSWER);
    assert.equal(jev.received.length, 2);
    assert.deepEqual(sleeps, [1000]);
  });

  it("retries an answer that does not come in time", async () => {
    jev.script("hang", OK);
    const client = new JevClient({ baseUrl: base, apiKey: { key: "k" }, sleep, timeoutMs: 200 });
    assert.deepEqual(await client.ask(REQUEST), ANSWER);
    assert.equal(jev.received.length, 2);
    assert.deepEqual(sleeps, [1000]);
  });

  it("says when the answer is not one", async () => {
    jev.script({ status: 200, body: '{"model":"jev-1.13.0","answers":{"go_on":{"type":"noul"}}}' });
    await assert.rejects(oracle().oracle.ask(REQUEST), {
      message: 'decoding TypeSafe response: answer "go_on": missing or non-number "noul"',
    });
    jev.script({ status: 200, body: "<html>" });
    await assert.rejects(oracle().oracle.ask(REQUEST), (err: Error) => {
      assert.ok(err instanceof OracleError);
      assert.match(err.message, /^decoding TypeSafe response: /);
      return true;
    });
  });

  it("reads the key from the file TYPESAFE_API_KEY_FILE names, trimmed", async () => {
    jev.script(OK);
    const keyFile = join(dir, "key");
    writeFileSync(keyFile, "  sk-from-file\n");
    const made = oracle({ TYPESAFE_API_KEY_FILE: keyFile });
    assert.equal(made.notice, undefined);
    await made.oracle.ask(REQUEST);
    assert.equal(jev.received[0]!.headers["authorization"], "Bearer sk-from-file");
  });

  it("prefers TYPESAFE_API_KEY to the key file", async () => {
    jev.script(OK);
    const keyFile = join(dir, "key");
    writeFileSync(keyFile, "sk-from-file");
    await oracle({ TYPESAFE_API_KEY: "sk-env", TYPESAFE_API_KEY_FILE: keyFile }).oracle.ask(REQUEST);
    assert.equal(jev.received[0]!.headers["authorization"], "Bearer sk-env");
  });

  it("without a key is built, says so once, and fails each uncached question with the reason", async () => {
    jev.script(OK);
    const made = oracle({});
    assert.equal(made.oracle.kind, "jev");
    assert.equal(made.notice, "the System-One model has no key: TYPESAFE_API_KEY is not set");
    await assert.rejects(made.oracle.ask(REQUEST), { name: "OracleError", message: "TYPESAFE_API_KEY is not set" });
    assert.equal(jev.received.length, 0);
    // What is cached still answers: it leaves nothing to send.
    await new AnswerCache(dir).write(requestKey(REQUEST), ANSWER);
    assert.deepEqual(await made.oracle.ask(REQUEST), ANSWER);
    assert.equal(jev.received.length, 0);
  });

  it("names a key file it cannot read", async () => {
    const missing = join(dir, "nope");
    const made = oracle({ TYPESAFE_API_KEY_FILE: missing });
    const reason = `reading TYPESAFE_API_KEY_FILE ${missing}: No such file or directory (os error 2)`;
    assert.equal(made.notice, `the System-One model has no key: ${reason}`);
    await assert.rejects(made.oracle.ask(REQUEST), { message: reason });
  });
});

describe("the jev oracle with its server stopped", () => {
  const jev = new FakeJev();
  let dir = "";
  after(async () => {
    await jev.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("replays a cached answer, and fails an uncached question after retrying the connection", async () => {
    const base = await jev.start();
    dir = mkdtempSync(join(tmpdir(), "stretto-oracle-"));
    jev.script(OK);
    const sleeps: number[] = [];
    const sleep = (ms: number): Promise<void> => {
      sleeps.push(ms);
      return Promise.resolve();
    };
    const env = { TYPESAFE_BASE_URL: base, TYPESAFE_API_KEY: "sk-test" };
    const first = await makeOracle({ kind: "jev", cache: dir }, { env, sleep }).oracle.ask(REQUEST);
    await jev.stop();

    const later = makeOracle({ kind: "jev", cache: dir }, { env, sleep }).oracle;
    assert.deepEqual(await later.ask(REQUEST), first);
    assert.deepEqual(sleeps, []);

    const other: OracleRequest = { ...REQUEST, state: "something else" };
    const port = new URL(base).port;
    await assert.rejects(later.ask(other), {
      message: `sending request to TypeSafe: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
    assert.deepEqual(sleeps, [1000, 2000, 4000, 8000]);
    assert.equal(jev.received.length, 1);
  });
});
