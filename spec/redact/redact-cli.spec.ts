/**
 * `stretto redact` over sessions the proxy really recorded: customers of the demo shop served with guards, stretto_commit and the conversation
 * (and, when the published flow is beside the repository, two served with it), redacted,
 * then learned from. The copy holds no customer's values, the proxy's own entries carry the
 * same pseudonyms as the calls they quote, and the flow learned from the copy is the one
 * learned from the recorded logs.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURE_PATH } from "../flow/flow-fixture.js";
import { NODE, STRETTO, cleanTemp, killAll, run, sessionLogs, tempDir, type Ran } from "../helpers/processes.js";
import { aString, argsOf, loggedMessage, valueAt, type LoggedMessage } from "./logged-message.js";
import { serveCustomer } from "./shop-sessions.js";

const SALT = "a secret salt";
const CUSTOMERS = [1, 2, 3, 4, 5, 6];
const FLOW_CUSTOMERS = [7, 8];

const stretto = (args: string[], env: NodeJS.ProcessEnv = { ...process.env, STRETTO_REDACT_SALT: SALT }): Promise<Ran> => run(NODE, [STRETTO, ...args], { env, timeoutMs: 60000 });

/** Every file of a folder with a digest of its bytes: what "left as it was" means. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    out[name] = lstatSync(path).isFile() ? createHash("sha256").update(readFileSync(path)).digest("hex") : "not a file";
  }
  return out;
}

type Entry = { from: string; raw?: string; message?: LoggedMessage };
const entries = (path: string): Entry[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .slice(1)
    .map((l) => {
      const line: unknown = JSON.parse(l);
      const [raw, message] = [valueAt(line, "raw"), valueAt(line, "message")];
      return { from: aString(valueAt(line, "from")), raw: raw === undefined ? undefined : aString(raw), message: message === undefined ? undefined : loggedMessage(message) };
    });
const all = (dir: string): string => sessionLogs(dir).map((p) => readFileSync(p, "utf8")).join("");
const texts = (m: LoggedMessage | undefined): string => (m?.result?.content ?? []).map((c) => c.text ?? "").join("\n");

describe("stretto redact: recorded sessions", function () {
  let raw: string;
  let served: number[];

  before(async function () {
    this.timeout(300000);
    raw = tempDir("stretto-redact-raw-");
    const conversations = tempDir("stretto-redact-context-");
    for (const n of CUSTOMERS) await serveCustomer(raw, conversations, n);
    served = existsSync(FIXTURE_PATH) ? FLOW_CUSTOMERS : [];
    if (served.length === 0) console.warn(`no flow lookups in these sessions: ${FIXTURE_PATH} is absent`);
    for (const n of served) await serveCustomer(raw, conversations, n, ["--flow", FIXTURE_PATH, "--flow-decider", "habit", "--flow-threshold", "0.1"]);
  });
  after(() => {
    killAll();
    cleanTemp();
  });

  it("hashes each customer's values, keeps what the sessions share, and leaves the recorded logs as they were", async () => {
    const before = snapshot(raw);
    const out = join(tempDir(), "made", "here");
    const r = await stretto(["redact", "--sessions", raw, "--out", out]);
    assert.equal(r.code, 0, r.stderr);
    const said = [`stretto: redacted ${CUSTOMERS.length + served.length} sessions into ${out}; values fewer than 3 of them share are hashed`];
    if (served.length > 0) said.unshift(`stretto: left out ${served.length} flow and confirmation logs: they are not redacted, so they are not copied`);
    assert.deepEqual(r.stderr.trimEnd().split("\n"), said);
    assert.deepEqual(snapshot(raw), before, "nothing in --sessions changed");

    // One copy per session, named after it; 0600 files in folders made 0700.
    const sessions = sessionLogs(raw).map((p) => aString(valueAt(JSON.parse(readFileSync(p, "utf8").split("\n")[0]!), "session")));
    assert.deepEqual(readdirSync(out).sort(), sessions.map((s) => `${s.replace(/[^A-Za-z0-9_-]/g, "_")}.jsonl`).sort());
    for (const dir of [out, join(out, "..")]) assert.equal(statSync(dir).mode & 0o777, 0o700, dir);
    for (const name of readdirSync(out)) assert.equal(statSync(join(out, name)).mode & 0o777, 0o600, name);

    const text = all(out);
    for (const n of [...CUSTOMERS, ...served]) {
      for (const gone of [`c${n}@example.com`, `user_${n}"`, `#W${n}a`, `W${n}b`, `credit_card_${n}`]) assert.ok(!text.includes(gone), `${gone} is still in the copy`);
    }
    for (const kept of ["no longer needed", "found it cheaper", "pending", "get_user_details", "Desk lamp", "(policy check retail.cancel_reason)"]) {
      assert.ok(text.includes(kept), `${kept} was kept`);
    }
    // The headers are the recorded logs' own.
    for (const p of sessionLogs(raw)) {
      const header = readFileSync(p, "utf8").split("\n")[0]!;
      const session = (JSON.parse(header) as { session: string }).session;
      assert.equal(readFileSync(join(out, `${session.replace(/[^A-Za-z0-9_-]/g, "_")}.jsonl`), "utf8").split("\n")[0], header);
    }
  });

  it("gives the proxy's refusals, commit reports and appended lookups, and the conversation, the pseudonyms of the calls they quote", async () => {
    const out = tempDir();
    assert.equal((await stretto(["redact", "--sessions", raw, "--out", out])).code, 0);
    const copies = sessionLogs(out).map(entries);
    const cancelling = copies.filter((log) => log.some((e) => e.message?.params?.name === "stretto_commit"));
    assert.equal(cancelling.length, [...CUSTOMERS, ...served].filter((n) => n % 2 === 1).length);
    for (const log of cancelling) {
      const cancel = log.find((e) => e.from === "client" && e.message?.params?.name === "cancel_pending_order")!;
      const order = aString(argsOf(cancel.message)["order_id"]);
      assert.match(order, /^h_[0-9a-f]{12}$/);
      const refusal = log.find((e) => e.from === "proxy" && e.message?.id === cancel.message!.id)!;
      assert.equal(
        texts(refusal.message),
        "Refused by the policy check, so cancel_pending_order was not run and nothing changed: 'found it cheaper' is not an accepted reason (policy check retail.cancel_reason).",
      );
      const commit = log.find((e) => e.from === "client" && e.message?.params?.name === "stretto_commit")!;
      const report = texts(log.find((e) => e.from === "proxy" && e.message?.id === commit.message!.id)!.message);
      assert.match(report, new RegExp(`^get_order_details \\{"order_id":"${order}"\\}:\\n\\{.*"order_id":"${order}".*\\}\\n\\ncancel_pending_order \\{"order_id":"${order}","reason":"no longer needed"\\}:\\n\\{"order_id":"${order}","status":"cancelled"\\}$`, "s"));
      const conversation = log.filter((e) => e.from === "context").map((e) => aString(e.message?.content));
      assert.match(conversation[0]!, new RegExp(`^Hi, I'm h_[0-9a-f]{12}\\. Please cancel ${order}\\.$`));
      assert.equal(conversation[2], `Yes, cancel ${order}, I no longer need it.`);
      const email = aString(argsOf(log.find((e) => e.message?.params?.name === "find_user_id_by_email")?.message)["email"]);
      assert.ok(conversation[0]!.includes(`I'm ${email}.`), "the email typed has the hash of the email passed");
    }
    for (const log of copies.filter((l) => l.some((e) => e.from === "proxy" && texts(e.message).includes("--- Also looked up")))) {
      const found = log.find((e) => e.from === "server" && e.message?.id === 3)!;
      const user = texts(found.message);
      assert.match(user, /^h_[0-9a-f]{12}$/);
      const lookup = log.find((e) => e.from === "proxy" && e.message?.method === "tools/call")!;
      assert.deepEqual(argsOf(lookup.message), { user_id: user });
      const copy = log.find((e) => e.from === "proxy" && e.message?.id === 3)!;
      const [own, appendix] = copy.message!.result!.content!.map((c) => c.text);
      assert.equal(own, user, "the server's item in the proxy's copy is rewritten as the server's answer was");
      assert.ok(appendix!.startsWith(`--- Also looked up automatically (current results; no need to repeat these calls) ---\n\nget_user_details {"user_id":"${user}"}:\n{`), appendix);
    }
    if (served.length > 0) assert.ok(copies.some((l) => l.some((e) => texts(e.message).includes("--- Also looked up"))), "the flow appended its lookups");
  });

  it("a flow learned from the copy is the one learned from the recorded logs (provenance aside), with and without named fields", async function () {
    const flows = tempDir();
    const learn = async (sessions: string, name: string): Promise<Record<string, unknown>> => {
      const path = join(flows, `${name}.flow.json`);
      const r = await stretto(["learn", "--sessions", sessions, "--domain", "retail", "--out", path, "--habit-only"]);
      assert.equal(r.code, 0, r.stderr);
      const flow = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
      delete flow["provenance"];
      return flow;
    };
    const original = await learn(raw, "original");
    assert.ok(JSON.stringify(original).includes("get_user_details"), "the flow learned something to compare");
    for (const named of [[], ["--hash-field", "user_id,email", "--hash-field", "order_id,orders,payment_method_id"]]) {
      const out = tempDir();
      assert.equal((await stretto(["redact", "--sessions", raw, "--out", out, ...named])).code, 0);
      const copy = await learn(out, `copy-${named.length}`);
      assert.deepEqual(copy, original);
      const diff = await stretto(["flow-diff", join(flows, "original.flow.json"), join(flows, `copy-${named.length}.flow.json`)]);
      assert.equal(diff.code, 0, diff.stdout.toString());
    }
  });

  it("says why it cannot redact, and then writes nothing", async () => {
    const before = snapshot(raw);
    const base = tempDir();
    const fails = async (args: string[], code: number, message: string, env?: NodeJS.ProcessEnv) => {
      const r = await stretto(["redact", ...args], env);
      assert.equal(r.code, code, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stderr.split("\n")[0], message);
    };
    const noSalt = { ...process.env };
    delete noSalt["STRETTO_REDACT_SALT"];
    const salt = "stretto: set STRETTO_REDACT_SALT to a secret salt: without one, anyone could hash guesses and match them";
    await fails(["--sessions", raw, "--out", join(base, "a")], 1, salt, noSalt);
    await fails(["--sessions", raw, "--out", join(base, "a")], 1, salt, { ...noSalt, STRETTO_REDACT_SALT: "" });
    await fails(["--sessions", raw, "--out", join(base, "a"), "--salt-env", "MY_SALT"], 1, "stretto: set MY_SALT to a secret salt: without one, anyone could hash guesses and match them");
    const same = "stretto: --out must be another directory: redact leaves the originals as they are";
    await fails(["--sessions", raw, "--out", raw], 1, same);
    await fails(["--sessions", raw, "--out", join(raw, "x", "..")], 1, same);
    symlinkSync(raw, join(base, "link"));
    await fails(["--sessions", raw, "--out", join(base, "link")], 1, same);
    await fails(["--sessions", join(base, "link"), "--out", raw], 1, same);
    await fails(["--sessions", raw, "--out", join(raw, "redacted")], 1, "stretto: --out must not be inside --sessions: redact leaves the originals as they are");
    await fails(["--sessions", raw, "--out", join(base, "link", "deeper", "still")], 1, "stretto: --out must not be inside --sessions: redact leaves the originals as they are");
    mkdirSync(join(base, "empty"));
    writeFileSync(join(base, "empty", "x.flow.jsonl"), "{}\n");
    await fails(["--sessions", join(base, "empty"), "--out", join(base, "a")], 1, `stretto: no session logs in ${join(base, "empty")}`);
    const twice = join(base, "twice");
    mkdirSync(twice);
    const [first] = sessionLogs(raw);
    copyFileSync(first!, join(twice, "one.jsonl"));
    copyFileSync(first!, join(twice, "two.jsonl"));
    const session = (JSON.parse(readFileSync(first!, "utf8").split("\n")[0]!) as { session: string }).session;
    await fails(["--sessions", twice, "--out", join(base, "a")], 1, `stretto: two logs in ${twice} share the session id ${session.replace(/[^A-Za-z0-9_-]/g, "_")}`);
    await fails(["--sessions", raw, "--out", join(base, "a"), "--keep-shared", "three"], 2, "stretto: --keep-shared takes a whole number, not 'three'");
    await fails(["--sessions", raw], 2, "stretto: redact needs --out DIR");
    await fails(["--out", join(base, "a")], 2, "stretto: redact needs --sessions DIR");
    assert.ok(!existsSync(join(base, "a")), "no --out was made");
    assert.deepEqual(snapshot(raw), before);
  });

  it("writing again replaces the copies, and a link planted where a copy goes is replaced, never written through", async () => {
    const out = tempDir();
    const victim = join(tempDir(), "victim.txt");
    writeFileSync(victim, "keep me\n");
    const name = readdirSync(raw).find((n) => !n.endsWith(".flow.jsonl"))!.replace(/\./g, "_").replace(/_jsonl$/, ".jsonl");
    symlinkSync(victim, join(out, name));
    const r = await stretto(["redact", "--sessions", raw, "--out", out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(victim, "utf8"), "keep me\n");
    assert.ok(lstatSync(join(out, name)).isFile());
    const first = snapshot(out);
    assert.equal((await stretto(["redact", "--sessions", raw, "--out", out])).code, 0);
    assert.deepEqual(snapshot(out), first, "the same salt and sessions give the same copies");
    assert.ok(readdirSync(out).every((n) => n.endsWith(".jsonl")), "no partial file is left");
  });
});
