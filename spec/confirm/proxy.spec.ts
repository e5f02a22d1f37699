/**
 * `stretto-proxy --guards --confirm-judge …` end to end, in front of `stretto-mcp-demo
 * --world retail`: answers from a seeded replay cache (enforce and log; the second question
 * counted and shadowed), the mock (customer 61's session, as the published run logged it),
 * and a fake Jev on loopback (`TYPESAFE_BASE_URL`) answering in 300 ms, with the official SDK
 * client as the host: refusals direct and inside stretto_commit, and order under the slow judge.
 */
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { FakeJev } from "../../fixtures/http/fake-jev.js";
import { confirmRequest, type Exchange } from "../../lib/guards/confirm/index.js";
import { requestKey } from "../../lib/oracle/index.js";
import { DEMO, NODE, PROXY, STRETTO, cleanTemp, killAll, readLogLines, run, runProxy, sessionLogs, start, tempDir } from "../helpers/processes.js";
import { Host, type Msg } from "../e2e/flow-support.js";
import { MODEL, seedYes } from "./seed.js";

type Line = Record<string, unknown>;

/** The environment without whatever key or model settings the machine running the tests has. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("TYPESAFE_") && k !== "SSL_CERT_FILE" && k !== "STRETTO_SESSION") env[k] = v;
  return { ...env, ...extra };
}

const say = (file: string, role: "user" | "assistant", content: string) => appendFileSync(file, `${JSON.stringify({ role, content })}\n`);
const textOf = (m: Msg) => (m.result?.content ?? []).map((c) => c.text).join("\n");
const confirmLines = (dir: string): Line[] => {
  const name = readdirSync(dir).find((f) => f.endsWith(".confirm.jsonl"));
  assert.ok(name, `a confirm log in ${dir}`);
  return readFileSync(join(dir, name), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Line);
};

/** A recorded, guarded, judged proxy in front of the retail demo, driven a line at a time. */
function judgedProxy(extra: string[], env: Record<string, string> = {}): { host: Host; dir: string; context: string } {
  const dir = tempDir();
  const context = join(dir, "conversation.jsonl");
  writeFileSync(context, "");
  const args = [PROXY, "--record", dir, "--domain", "retail", "--guards", "--context", context, ...extra, "--", NODE, DEMO, "--world", "retail"];
  return { host: new Host(start(NODE, args, { env: cleanEnv(env) })), dir, context };
}

const W7A = { order_id: "#W7a", reason: "no longer needed" };
const W7B = { order_id: "#W7b", reason: "no longer needed" };
const W7B_MISTAKE = { order_id: "#W7b", reason: "ordered by mistake" };
const OFFER = "Order #W7a is pending. Shall I cancel it as no longer needed?";
const FIRST: Exchange = { proposal: OFFER, customer: "Yes, cancel #W7a." };
const SECOND: Exchange = { proposal: "Done: #W7a is cancelled.", customer: "Also cancel #W7b." };

/** The session of §8: a confirmed cancel, a doubted one, then one the cache has no answer for. */
async function threeWrites(mode: "enforce" | "log", cache: string): Promise<{ answers: Msg[]; dir: string; stderr: string; code: number | null }> {
  const { host, dir, context } = judgedProxy(["--confirm-judge", mode, "--oracle", "replay", "--oracle-cache", cache]);
  await host.start();
  say(context, "user", "Hi, I'm c7@example.com. Please cancel my orders.");
  await host.call(3, "find_user_id_by_email", { email: "c7@example.com" });
  await host.call(4, "get_order_details", { order_id: "#W7a" });
  await host.call(5, "get_order_details", { order_id: "#W7b" });
  say(context, "assistant", FIRST.proposal);
  say(context, "user", FIRST.customer);
  const answers = [await host.call(6, "cancel_pending_order", W7A)];
  say(context, "assistant", SECOND.proposal);
  say(context, "user", SECOND.customer);
  answers.push(await host.call(7, "cancel_pending_order", W7B));
  if (mode === "enforce") {
    say(context, "assistant", "Which reason should I give?");
    say(context, "user", "I ordered it by mistake.");
    answers.push(await host.call(8, "cancel_pending_order", W7B_MISTAKE));
  }
  const code = await host.end();
  return { answers, dir, stderr: host.stderr, code };
}

describe("stretto-proxy --confirm-judge", () => {
  after(() => {
    killAll();
    cleanTemp();
  });

  it("enforce passes a confirmed write (0.92), refuses a doubted one (0.15), passes one it cannot answer; log refuses nothing", async () => {
    const cache = tempDir();
    await seedYes(cache, FIRST, "cancel_pending_order", W7A, 0.92);
    await seedYes(cache, SECOND, "cancel_pending_order", W7B, 0.15);
    const [enforce, log] = await Promise.all([threeWrites("enforce", cache), threeWrites("log", cache)]);

    assert.equal(enforce.code, 0, enforce.stderr);
    assert.equal(enforce.answers[0]!.result?.isError, false);
    assert.equal(enforce.answers[1]!.result?.isError, true);
    assert.match(textOf(enforce.answers[1]!), /confirmation judge: p_yes 0\.15/);
    assert.equal(enforce.answers[2]!.result?.isError, false, "a judge that cannot answer refuses nothing");
    assert.match(enforce.stderr, /^stretto-proxy: the confirmation judge could not answer: replay cache miss for request [0-9a-f]{64}$/m);
    assert.equal(log.answers[1]!.result?.isError, false, "log mode refuses nothing the guards would not");
    assert.doesNotMatch(log.stderr, /could not answer/);

    for (const [run, mode, n] of [[enforce, "enforce", 3], [log, "log", 2]] as const) {
      const lines = confirmLines(run.dir);
      assert.equal(lines.length, n);
      assert.equal(lines[0]!["p_yes"], 0.92);
      assert.equal(lines[0]!["fails"], false);
      assert.equal(lines[1]!["p_yes"], 0.15);
      assert.equal(lines[1]!["fails"], true);
      assert.equal(lines[1]!["enforced"], mode === "enforce");
      for (const l of lines) {
        assert.match(l["key"] as string, /^[0-9a-f]{64}$/);
        assert.deepEqual(l["proposal_check"], []);
        assert.equal(typeof l["ms"], "number");
      }
      assert.equal(lines[0]!["key"], requestKey(confirmRequest(MODEL, FIRST, { tool: "cancel_pending_order", arguments: W7A }, "confirmed")), "the proxy and stretto confirm share keys");
    }
    const third = confirmLines(enforce.dir)[2]!;
    assert.equal(typeof third["error"], "string");
    assert.equal(third["unknown"], true);
    assert.equal(third["fails"], false);

    // Offline, through the same plugins, answered from the same cache: the same refusal and the same judgments.
    const replayLog = join(tempDir(), "replayed.confirm.jsonl");
    const replayed = await run(NODE, [STRETTO, "replay", sessionLogs(enforce.dir)[0]!, "--guards", "--confirm-judge", "enforce", "--oracle", "replay", "--oracle-cache", cache, "--confirm-log", replayLog]);
    assert.equal(replayed.code, 0, replayed.stderr);
    const actions = replayed.stdout.toString().trimEnd().split("\n").map((l) => JSON.parse(l) as { action: string; id: unknown; text?: string });
    assert.deepEqual(actions.filter((a) => a.action === "refused").map((a) => [a.id, a.text]), [[7, textOf(enforce.answers[1]!)]]);
    const offline = readFileSync(replayLog, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Line);
    const live = confirmLines(enforce.dir);
    assert.deepEqual(offline.map((l) => [l["key"], l["p_yes"], l["fails"], l["unknown"]]), live.map((l) => [l["key"], l["p_yes"], l["fails"], l["unknown"]]));
    // stretto confirm over the recorded session asks the same questions: the proxy's cached answers serve it.
    const json = join(tempDir(), "confirm.json");
    const audited = await run(NODE, [STRETTO, "confirm", "--sessions", enforce.dir, "--oracle-cache", cache, "--json", json]);
    assert.equal(audited.code, 0, audited.stderr);
    const writes = (JSON.parse(readFileSync(json, "utf8")) as { writes: Line[] }).writes;
    assert.deepEqual(writes.map((w) => [w["key"], w["p_yes"]]), live.map((l) => [l["key"], l["p_yes"]]));
    const usage = await run(NODE, [STRETTO, "replay", sessionLogs(enforce.dir)[0]!, "--confirm-judge", "log"]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--guards/);
  });

  it("a counted second question refuses (p_second 0.10); a shadowed one is only logged", async () => {
    const cache = tempDir();
    const exchange = { proposal: OFFER, customer: "Yes, cancel #W7a." };
    await seedYes(cache, exchange, "cancel_pending_order", W7A, 0.92);
    await seedYes(cache, exchange, "cancel_pending_order", W7A, 0.1, "proposed");
    const once = async (shadow: boolean) => {
      const extra = ["--confirm-judge", "enforce", "--confirm-second", "proposed", ...(shadow ? ["--confirm-second-shadow"] : []), "--oracle", "replay", "--oracle-cache", cache];
      const { host, dir, context } = judgedProxy(extra);
      await host.start();
      say(context, "user", "Hi, I'm c7@example.com.");
      await host.call(3, "find_user_id_by_email", { email: "c7@example.com" });
      await host.call(4, "get_order_details", { order_id: "#W7a" });
      say(context, "assistant", exchange.proposal);
      say(context, "user", exchange.customer);
      const answer = await host.call(5, "cancel_pending_order", W7A);
      await host.end();
      return { answer, lines: confirmLines(dir) };
    };
    const [counted, shadowed] = await Promise.all([once(false), once(true)]);
    assert.equal(counted.answer.result?.isError, true);
    assert.match(textOf(counted.answer), /confirmation judge: p_second 0\.10/);
    assert.equal(shadowed.answer.result?.isError, false);
    for (const [run, shadow] of [[counted, false], [shadowed, true]] as const) {
      assert.equal(run.lines.length, 1);
      const l = run.lines[0]!;
      assert.equal(l["p_yes"], 0.92);
      assert.equal(l["p_second"], 0.1);
      assert.equal(l["fails"], !shadow);
      assert.equal(l["unknown"], false);
      assert.equal(l["second_shadow"], shadow ? true : undefined);
    }
  });

  it("logs customer 61 of the demo shop as the published run did (--confirm-judge log --oracle mock)", async () => {
    const { host, dir, context } = judgedProxy(["--confirm-judge", "log", "--oracle", "mock"]);
    await host.start();
    say(context, "user", "Hi, I'm c61@example.con. I'd like to cancel an order I placed by mistake.");
    assert.equal((await host.call(3, "find_user_id_by_email", { email: "c61@example.con" })).result?.isError, true);
    say(context, "assistant", "I couldn't find that email. Could you check it?");
    say(context, "user", "Sorry, it's c61@example.com.");
    await host.call(4, "find_user_id_by_email", { email: "c61@example.com" });
    await host.call(5, "get_user_details", { user_id: "user_61" });
    await host.call(6, "get_order_details", { order_id: "#W61a" });
    say(context, "assistant", "Order #W61a (a desk lamp) is pending. Shall I cancel it as ordered by mistake?");
    say(context, "user", "Yes, cancel it.");
    const answer = await host.call(7, "cancel_pending_order", { order_id: "#W61a", reason: "ordered by mistake" });
    assert.equal(answer.result?.isError, false);
    assert.equal(await host.end(), 0);

    const session = sessionLogs(dir)[0]!;
    const confirmLog = session.replace(/\.jsonl$/, ".confirm.jsonl");
    const [text] = readFileSync(confirmLog, "utf8").split("\n");
    const key = requestKey(
      confirmRequest(
        MODEL,
        { proposal: "Order #W61a (a desk lamp) is pending. Shall I cancel it as ordered by mistake?", customer: "Yes, cancel it." },
        { tool: "cancel_pending_order", arguments: { order_id: "#W61a", reason: "ordered by mistake" } },
        "confirmed",
      ),
    );
    assert.equal(
      text!.replace(/"ms":\d+/, '"ms":0'),
      `{"arguments":{"order_id":"#W61a","reason":"ordered by mistake"},"enforced":false,"fails":false,"key":"${key}","ms":0,"p_yes":0.5,"proposal_check":[],"tool":"cancel_pending_order","unknown":false,"word_list":true}`,
    );
    assert.deepEqual(readLogLines(session).header["domain"], "retail");
  });

  it("needs --guards and --context (usage error, exit 2); without a key it starts, says so once, and refuses nothing", async () => {
    const usage = await runProxy(["--guards", "--domain", "retail", "--confirm-judge", "log", "--", NODE, DEMO]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^error: the following required arguments were not provided: --context <FILE>$/m);

    const home = tempDir();
    const { host, context } = judgedProxy(["--confirm-judge", "enforce", "--oracle-cache", tempDir(), "--confirm-log", "~/judged-{session}.jsonl"], { HOME: home, STRETTO_SESSION: "task-9" });
    await host.start();
    say(context, "user", "Hi, I'm c7@example.com.");
    await host.call(3, "find_user_id_by_email", { email: "c7@example.com" });
    await host.call(4, "get_order_details", { order_id: "#W7a" });
    await host.call(5, "get_order_details", { order_id: "#W7b" });
    say(context, "assistant", OFFER);
    say(context, "user", "Hmm.");
    assert.equal((await host.call(6, "cancel_pending_order", W7A)).result?.isError, false);
    assert.equal((await host.call(7, "cancel_pending_order", W7B)).result?.isError, false);
    assert.equal(await host.end(), 0);
    assert.equal(host.stderr.match(/TYPESAFE_API_KEY is not set/g)?.length, 1, host.stderr);
    assert.match(host.stderr, /^stretto-proxy: the System-One model has no key: TYPESAFE_API_KEY is not set$/m);
    // --confirm-log with ~ and {session} (the host session): the judgments go there, not beside the session log.
    const lines = readFileSync(join(home, "judged-task-9.jsonl"), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Line);
    assert.deepEqual(lines.map((l) => [l["error"], l["unknown"], l["fails"]]), [["TYPESAFE_API_KEY is not set", true, false], ["TYPESAFE_API_KEY is not set", true, false]]);
  });

  describe("with a fake Jev answering in 300 ms and the SDK client as the host", () => {
    const fake = new FakeJev();
    let base = "";
    before(async () => {
      base = await fake.start();
      fake.delayMs = 300;
      fake.noul = (id, state) => (id === "confirmed" ? (/\byes\b/i.test(String((state as { customer_replied?: unknown }).customer_replied)) ? 0.92 : 0.15) : undefined);
    });
    after(() => fake.stop());

    it("enforce refuses an unconfirmed cancel and lets a confirmed one through, inside stretto_commit too; later lines wait, answers do not", async () => {
      const dir = tempDir();
      const context = join(dir, "conversation.jsonl");
      writeFileSync(context, "");
      const transport = new StdioClientTransport({
        command: NODE,
        args: [PROXY, "--record", dir, "--domain", "retail", "--guards", "--commit", "--context", context, "--confirm-judge", "enforce", "--oracle-cache", tempDir(), "--", NODE, DEMO, "--world", "retail"],
        env: { ...getDefaultEnvironment(), ...cleanEnv({ TYPESAFE_BASE_URL: base, TYPESAFE_API_KEY: "sk-test" }) } as Record<string, string>,
        stderr: "pipe",
      });
      const client = new Client({ name: "stretto-test-host", version: "0" });
      await client.connect(transport);
      type Result = { content?: Array<{ text?: string }>; isError?: boolean };
      const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;
      const text = (r: Result) => (r.content ?? []).map((c) => c.text ?? "").join("\n");

      say(context, "user", "Hi, I'm c7@example.com.");
      await call("find_user_id_by_email", { email: "c7@example.com" });
      await call("get_order_details", { order_id: "#W7a" });
      await call("get_order_details", { order_id: "#W7b" });
      say(context, "assistant", OFFER);
      say(context, "user", "Hmm, what would the refund be?");
      const doubted = await call("cancel_pending_order", W7A);
      assert.equal(doubted.isError, true);
      assert.equal(
        text(doubted),
        "Refused by the policy check, so cancel_pending_order was not run and nothing changed: the customer has not explicitly agreed to this exact change (confirmation judge: p_yes 0.15); describe the change and ask the customer to confirm it first.",
      );
      say(context, "assistant", "The full amount goes back to your card. Shall I cancel #W7a?");
      say(context, "user", "Yes, cancel it.");
      assert.equal((await call("cancel_pending_order", W7A)).isError, false);

      say(context, "assistant", "Shall I cancel #W7b as well?");
      say(context, "user", "What is in it?");
      const commit = () => call("stretto_commit", { calls: [{ name: "cancel_pending_order", arguments: W7B }] });
      const refusedCommit = await commit();
      assert.equal(refusedCommit.isError, true);
      assert.match(text(refusedCommit), /was refused by the policy check: .*\(confirmation judge: p_yes 0\.15\)/);
      say(context, "assistant", "A desk lamp. Shall I cancel #W7b?");
      say(context, "user", "Yes please.");
      const madeCommit = await commit();
      assert.equal(madeCommit.isError, false, text(madeCommit));

      // Order under the slow judge: the judge answers only once the answer to the call sent
      // before the write has reached the host (a proxy that held it would never finish).
      say(context, "user", "My partner is c8@example.com; please cancel #W8a for them.");
      await call("find_user_id_by_email", { email: "c8@example.com" });
      await call("get_order_details", { order_id: "#W8a" });
      let open = () => {};
      fake.hold = new Promise<void>((r) => (open = r));
      say(context, "assistant", "Shall I cancel #W8a as no longer needed?");
      say(context, "user", "Yes, go ahead.");
      const done: string[] = [];
      const before = call("get_user_details", { user_id: "user_8" }).then(() => {
        done.push("before");
        open();
      });
      const write = call("cancel_pending_order", { order_id: "#W8a", reason: "no longer needed" }).then((r) => {
        done.push("write");
        return r;
      });
      const later = call("get_order_details", { order_id: "#W8b" }).then(() => done.push("later"));
      await Promise.all([before, write, later]);
      fake.hold = undefined;
      assert.equal((await write).isError, false);
      assert.deepEqual(done, ["before", "write", "later"]);
      await client.close();

      // The server got the line sent after the write after it: its answers come in that order.
      const served = readLogLines(sessionLogs(dir)[0]!)
        .entries.map((e) => JSON.parse(e) as { from: string; message?: { result?: { content?: Array<{ text?: string }> } } })
        .filter((e) => e.from === "server")
        .map((e) => e.message?.result?.content?.[0]?.text ?? "");
      const w8 = served.filter((t) => (t.includes("#W8a") && t.includes("cancelled")) || t.includes('"order_id":"#W8b"'));
      assert.deepEqual(w8.map((t) => (t.includes("cancelled") ? "write" : "later")), ["write", "later"]);
      assert.equal(confirmLines(dir).length, 5);
    });
  });
});
