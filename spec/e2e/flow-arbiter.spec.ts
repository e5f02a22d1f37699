/**
 * The arbiter decider end to end: the real
 * `stretto-proxy --flow … --flow-decider arbiter` in front of `stretto-mcp-demo --world
 * retail`, asking a fake Jev that this test runs on loopback and names in
 * `TYPESAFE_BASE_URL`. The fake backs `get_user_details` whenever it is offered and
 * `respond` elsewhere, so after `find_user_id_by_email` the flow looks the user up and
 * then hands back.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { FakeJev } from "../../fixtures/http/fake-jev.js";
import { DEMO, NODE, PROXY, cleanTemp, killAll, start, tempDir } from "../helpers/processes.js";
import { FLOW_MODEL, OTHER_TASK, PREDICATE, TASK, writeArbiterFlow } from "./arbiter-flow.js";
import { APPENDIX, Host, requireFixture, type Msg } from "./flow-support.js";

// The v2 request's fixed texts, word for word (the model is prompted with them, and cached answers are keyed by them).
const CTX =
  "A customer-service agent is working on the customer's request. Between its messages to the customer it can look things up with tools. It makes changes (cancellations, modifications, exchanges, returns, bookings) and transfers only after the customer confirms them.";
const RESPOND =
  "Hand back: the agent writes to the customer now (to ask for missing details or a confirmation, report what it found, or answer), or it makes a change or a transfer.";
const GO_ON = {
  true: "It still needs information it can look up before it can reply or act.",
  false: "It has what it needs for now: it writes to the customer, or makes a change.",
};

type Line = Record<string, unknown>;

/** The environment without whatever key or model settings the machine running the tests has. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("TYPESAFE_") && k !== "SSL_CERT_FILE") env[k] = v;
  return { ...env, ...extra };
}

interface Setup {
  flow: string;
  cache: string;
  env: Record<string, string>;
  task?: string;
  oracle?: "jev" | "replay";
  extra?: string[];
}

/** A recorded proxy session serving the arbiter flow; returns the host and the record dir. */
function arbiterHost(s: Setup): { host: Host; dir: string } {
  const dir = tempDir();
  const args = [PROXY, "--record", dir, "--flow", s.flow, "--flow-decider", "arbiter", "--task-id", s.task ?? TASK];
  args.push("--oracle", s.oracle ?? "jev", "--oracle-cache", s.cache, ...(s.extra ?? []), "--", NODE, DEMO, "--world", "retail");
  return { host: new Host(start(NODE, args, { env: cleanEnv(s.env) })), dir };
}

const texts = (m: Msg) => m.result?.content?.map((c) => c.text) ?? [];
/** What the proxy said on stderr, less the `recording to …` line `--record` adds. */
const said = (host: Host) => host.stderr.replace(/^stretto-proxy: recording to .*\n/m, "");

function flowLog(dir: string): { decisions: Line[]; runs: Line[] } {
  const name = readdirSync(dir).find((f) => f.endsWith(".flow.jsonl"));
  assert.ok(name, "a flow log beside the session log");
  const lines = readFileSync(join(dir, name), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Line);
  return { decisions: lines.filter((l) => "action" in l), runs: lines.filter((l) => "run" in l) };
}

/** RFC 8785 for what a request holds (ASCII keys, strings, plain numbers): keys sorted, compact. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(",")}}`;
  }
  return JSON.stringify(v);
}
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

function close(actual: unknown, expected: number, what: string): void {
  assert.equal(typeof actual, "number", what);
  assert.ok(Math.abs((actual as number) - expected) < 1e-9, `${what}: ${String(actual)} is not ${expected}`);
}

// The model's answers as the fake gives them, and what the trusting fold makes of them
// (score = ln one + ln two + logit(0.8) on a lookup; the predicate's logit is ln 4).
const BACKED = 0.9;
const P_LOOKUP = (0.9 * 0.9 * 4) / (0.9 * 0.9 * 4 + 0.1 * 0.1);
const P_NOT_BACKED = (0.1 * 0.1 * 4) / (0.1 * 0.1 * 4 + 0.9 * 0.9);

/** The first decision of a trusting run: get_user_details for user_7, with the model's answers logged. */
function assertLooksUpUser(d: Line, key: string): void {
  assert.equal(d["action"], "lookup");
  assert.equal(d["tool"], "get_user_details");
  assert.deepEqual(d["arguments"], { user_id: "user_7" });
  assert.equal(d["site"], "find_user_id_by_email");
  assert.equal(d["after"], 3);
  assert.equal(d["address"], "decide#0");
  assert.equal(d["key"], key);
  const oracle = d["oracle"] as Record<string, number>;
  assert.deepEqual(Object.keys(oracle), ["get_user_details", "respond"]);
  close(oracle["get_user_details"], BACKED, "oracle.get_user_details");
  close(oracle["respond"], 1 - BACKED, "oracle.respond");
  assert.deepEqual(d["predicates"], { [PREDICATE.id]: 0.8 });
  const probs = d["probs"] as Record<string, number>;
  close(probs["get_user_details"], P_LOOKUP, "probs.get_user_details");
  close(probs["respond"], 1 - P_LOOKUP, "probs.respond");
  close(d["prob"], P_LOOKUP, "prob");
  assert.equal(d["binding"], 0.75);
  assert.equal(typeof d["ms"], "number");
}

/** The second: after get_user_details the model backs respond, so the flow hands back. */
function assertHandsBack(d: Line, key: string): void {
  assert.equal(d["action"], "hand_back");
  assert.equal(d["reason"], "get_order_details at 0.05, below 0.3");
  assert.equal(d["site"], "get_user_details");
  assert.equal(d["address"], "decide#1");
  assert.equal(d["key"], key);
  close((d["probs"] as Record<string, number>)["get_order_details"], P_NOT_BACKED, "probs.get_order_details");
  close((d["oracle"] as Record<string, number>)["respond"], BACKED, "oracle.respond");
}

/** The agent's answer: its own result, then the one lookup the flow made. */
function assertAppendix(answer: Msg): void {
  const items = texts(answer);
  assert.equal(items.length, 2);
  assert.equal(items[0], "user_7");
  const head = `${APPENDIX}\n\nget_user_details {"user_id":"user_7"}:\n`;
  assert.ok(items[1]!.startsWith(head), items[1]);
  assert.deepEqual((JSON.parse(items[1]!.slice(head.length)) as { orders: string[] }).orders, ["#W7a", "#W7b"]);
}

describe("the arbiter decider against a fake Jev (--flow-decider arbiter)", function () {
  let flow = "";
  let jev: FakeJev;
  let base = "";

  before(function () {
    requireFixture(this);
    flow = writeArbiterFlow(tempDir());
  });
  beforeEach(async () => {
    jev = new FakeJev();
    jev.favour = ["get_user_details"];
    base = await jev.start();
  });
  afterEach(() => jev.stop());
  after(() => {
    killAll();
    cleanTemp();
  });

  it("asks Jev the v2 questions with the key, retries a 503, and appends the lookup it backs", async () => {
    jev.unavailable = 1;
    const cache = tempDir();
    // A trailing slash on the base URL is trimmed.
    const { host, dir } = arbiterHost({ flow, cache, env: { TYPESAFE_BASE_URL: `${base}/`, TYPESAFE_API_KEY: "sk-test-1" } });
    await host.start();
    const asked = Date.now();
    const answer = await host.call(3);
    const waited = Date.now() - asked;
    assert.equal(await host.end(), 0);
    assert.equal(said(host), `stretto-proxy: serving the retail flow from ${flow}, deciding with arbiter\n`);
    assertAppendix(answer);

    // Three requests: the 503, its retry after the first 1 s back-off, the decision after the lookup.
    assert.equal(jev.received.length, 3);
    assert.ok(waited >= 1000, `the retry waited ${waited} ms`);
    for (const r of jev.received) {
      assert.equal(r.method, "POST");
      assert.equal(r.path, "/v1/systemone");
      assert.equal(r.headers.authorization, "Bearer sk-test-1");
      assert.match(r.headers["content-type"] ?? "", /^application\/json\b/);
    }
    const [first, retry, second] = jev.bodies() as Array<{ model: string; state: unknown; questions: Record<string, unknown> }>;
    assert.deepEqual(retry, first, "the retry asks the same");

    // The request at find_user_id_by_email: one lookup offered, so no `tool` question.
    const last = "It has just received the result of `find_user_id_by_email`.";
    assert.deepEqual(Object.keys(first!), ["model", "state", "questions"]);
    assert.equal(first!.model, FLOW_MODEL);
    assert.deepEqual(first!.state, {
      customer_request: "",
      latest_results: [{ tool_call: "find_user_id_by_email", arguments: { email: "c7@example.com" }, result: "user_7" }],
    });
    assert.deepEqual(first!.questions, {
      next: {
        type: "choice",
        instructions: `${CTX} ${last} What does it do next? Pick the lookup it makes now, or 'respond' if it hands back.`,
        criteria: { get_user_details: "Get the details of a user, including their orders.", respond: RESPOND },
      },
      go_on: {
        type: "noul",
        instructions: `${CTX} ${last} Does it make another lookup now, before it writes to the customer or makes any change?`,
        criteria: GO_ON,
      },
      [`pred_${PREDICATE.id}`]: { type: "noul", instructions: `${CTX} ${PREDICATE.question}`, criteria: { true: PREDICATE.yes, false: PREDICATE.no } },
    });

    // The request after the flow's own lookup sees it among the latest results.
    const state = second!.state as { latest_results: Array<{ tool_call: string; arguments: unknown }> };
    assert.deepEqual(
      state.latest_results.map((r) => [r.tool_call, r.arguments]),
      [
        ["find_user_id_by_email", { email: "c7@example.com" }],
        ["get_user_details", { user_id: "user_7" }],
      ],
    );
    const next = second!.questions["next"] as { instructions: string; criteria: Record<string, string> };
    assert.ok(next.instructions.includes("It has just received the result of `get_user_details`."));
    assert.deepEqual(Object.keys(next.criteria), ["get_order_details", "respond"]);

    // The flow log: each decision names the request it asked by its cache key (the SHA-256 of
    // the request's canonical JSON), with the model's answers beside the arbiter's probabilities.
    const { decisions, runs } = flowLog(dir);
    assert.equal(decisions.length, 2);
    assertLooksUpUser(decisions[0]!, sha256(canonical(first)));
    assertHandsBack(decisions[1]!, sha256(canonical(second)));
    assert.equal(runs.length, 1);
  });

  it("keeps each answer in the cache and serves it again with the server stopped", async () => {
    const cache = tempDir();
    const keyFile = join(tempDir(), "typesafe.key");
    writeFileSync(keyFile, "  sk-from-file\n");
    const first = arbiterHost({ flow, cache, env: { TYPESAFE_BASE_URL: base, TYPESAFE_API_KEY_FILE: keyFile } });
    await first.host.start();
    const original = await first.host.call(3);
    assert.equal(await first.host.end(), 0);
    assertAppendix(original);
    assert.deepEqual(jev.received.map((r) => r.headers.authorization), ["Bearer sk-from-file", "Bearer sk-from-file"], "the key file's key, trimmed");

    // `<cache>/<key[0..2]>/<key>.json`, one per question asked, holding Jev's answer pretty-printed.
    const keys = flowLog(first.dir).decisions.map((d) => d["key"] as string);
    assert.deepEqual(filesUnder(cache), keys.map((k) => join(k.slice(0, 2), `${k}.json`)).sort());
    keys.forEach((k, i) => {
      const text = readFileSync(join(cache, k.slice(0, 2), `${k}.json`), "utf8");
      assert.equal(text, JSON.stringify(JSON.parse(text), null, 2));
      assert.deepEqual(JSON.parse(text), jev.answered[i]);
    });

    // jev with every answer cached: the server, still up, is not asked.
    jev.received.length = 0;
    const again = arbiterHost({ flow, cache, env: { TYPESAFE_BASE_URL: base, TYPESAFE_API_KEY_FILE: keyFile } });
    await again.host.start();
    assert.deepEqual(texts(await again.host.call(3)), texts(original));
    assert.equal(await again.host.end(), 0);
    assert.deepEqual(jev.received, []);

    // replay, with the server stopped and no key at all: the same decisions from the cache.
    await jev.stop();
    const replay = arbiterHost({ flow, cache, oracle: "replay", env: { TYPESAFE_BASE_URL: base } });
    await replay.host.start();
    assert.deepEqual(texts(await replay.host.call(3)), texts(original));
    assert.equal(await replay.host.end(), 0);
    assert.equal(said(replay.host), `stretto-proxy: serving the retail flow from ${flow}, deciding with arbiter\n`);
    assert.deepEqual(jev.received, []);

    for (const run of [again, replay]) {
      const { decisions } = flowLog(run.dir);
      assert.equal(decisions.length, 2);
      assertLooksUpUser(decisions[0]!, keys[0]!);
      assertHandsBack(decisions[1]!, keys[1]!);
    }
  });

  it("weighs the answers with the fold --task-id picks", async () => {
    // OTHER_TASK's fold puts all its weight on handing back: the model is asked, then overruled.
    const { host, dir } = arbiterHost({ flow, cache: tempDir(), task: OTHER_TASK, env: { TYPESAFE_BASE_URL: base, TYPESAFE_API_KEY: "sk-test-1" } });
    await host.start();
    assert.deepEqual(texts(await host.call(3)), ["user_7"]);
    assert.equal(await host.end(), 0);
    assert.equal(jev.received.length, 1);
    const { decisions } = flowLog(dir);
    assert.equal(decisions.length, 1);
    const d = decisions[0]!;
    assert.equal(d["action"], "hand_back");
    assert.equal(d["reason"], "get_user_details at 0.00, below 0.3");
    close((d["oracle"] as Record<string, number>)["get_user_details"], BACKED, "the model still backed the lookup");
    assert.equal(d["key"], sha256(canonical(jev.bodies()[0])));
  });

  it("asks which lookup (`tool`) where two are offered, and splits go_on by it", async () => {
    // Backing get_order_details too takes the flow one site further, to get_order_details,
    // which offers two lookups; --flow-per-call 3 stops it there.
    jev.favour = ["get_user_details", "get_order_details"];
    const env = { TYPESAFE_BASE_URL: base, TYPESAFE_API_KEY: "sk-test-1" };
    const { host, dir } = arbiterHost({ flow, cache: tempDir(), env, extra: ["--flow-per-call", "3"] });
    await host.start();
    await host.call(3);
    assert.equal(await host.end(), 0);
    const bodies = jev.bodies() as Array<{ questions: Record<string, unknown> }>;
    assert.equal(bodies.length, 3);
    assert.deepEqual(bodies.map((b) => Object.keys(b.questions)), [
      ["next", "go_on", `pred_${PREDICATE.id}`],
      ["next", "go_on", `pred_${PREDICATE.id}`],
      ["next", "go_on", "tool", `pred_${PREDICATE.id}`],
    ]);
    assert.deepEqual(bodies[2]!.questions["tool"], {
      type: "choice",
      instructions: `${CTX} It has just received the result of \`get_order_details\`. Suppose it makes one more lookup now: which one?`,
      criteria: {
        get_order_details: "Get the status and details of an order.",
        get_product_details: "Get the inventory details of a product.",
      },
    });
    const d = flowLog(dir).decisions[2]!;
    assert.equal(d["site"], "get_order_details");
    assert.equal(d["action"], "lookup");
    assert.equal(d["tool"], "get_order_details");
    // one = next's answer; two = go_on (0.9) times the tool answer's share; respond = 1 − go_on.
    const score = (one: number, two: number, lookup: boolean) => one * two * (lookup ? 4 : 1);
    const s = [score(0.9, 0.9 * 0.9, true), score(0.05, 0.9 * 0.1, true), score(0.05, 0.1, false)];
    const total = s[0]! + s[1]! + s[2]!;
    const probs = d["probs"] as Record<string, number>;
    close(probs["get_order_details"], s[0]! / total, "probs.get_order_details");
    close(probs["get_product_details"], s[1]! / total, "probs.get_product_details");
    close(probs["respond"], s[2]! / total, "probs.respond");
  });

  it("without a key starts, says so once, and hands back without asking", async () => {
    const cache = tempDir();
    const { host, dir } = arbiterHost({ flow, cache, env: { TYPESAFE_BASE_URL: base } });
    await host.start();
    assert.deepEqual(texts(await host.call(3)), ["user_7"]);
    assert.deepEqual(texts(await host.call(4)), ["user_7"]);
    assert.equal(await host.end(), 0);
    assert.equal(
      said(host),
      `stretto-proxy: serving the retail flow from ${flow}, deciding with arbiter\n` +
        "stretto-proxy: the System-One model has no key: TYPESAFE_API_KEY is not set\n",
    );
    assert.deepEqual(jev.received, []);
    assert.deepEqual(filesUnder(cache), []);
    const { decisions } = flowLog(dir);
    assert.deepEqual(decisions.map((d) => d["after"]), [3, 4]);
    for (const d of decisions) {
      assert.equal(d["action"], "hand_back");
      assert.equal(d["reason"], "the System-One model failed: TYPESAFE_API_KEY is not set");
      assert.equal(d["site"], "find_user_id_by_email");
      assert.match(String(d["key"]), /^[0-9a-f]{64}$/, "the question was formed, so it has a key");
      assert.deepEqual([d["probs"], d["oracle"], d["predicates"], d["prob"], d["binding"]], [{}, {}, {}, null, null]);
    }
  });
});
