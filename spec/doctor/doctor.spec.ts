/**
 * `stretto doctor`: the companions on PATH and their versions, the data folder, the key by
 * presence only, what the folder holds, and `--network` asking a fake Jev (a local server
 * standing in for TypeSafe's, which a test cannot reach) one question. Exit 1 on a problem;
 * a key's value never appears. The binary runs as a process where PATH and its own path
 * matter; the rest through its entry point in this process (see spec/init/init-helpers.ts).
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeJev, FAKE_MODEL } from "../../fixtures/http/fake-jev.js";
import { DEMO, NODE, PROXY, cleanTemp, tempDir } from "../helpers/processes.js";
import { fakeBin, inProcess, makeFlows, stretto } from "../init/init-helpers.js";
import { shopLog, usualSession } from "../learn/shop-logs.js";

const PROCEDURE = PROXY.replace("stretto-proxy.js", "stretto-procedure.js");
const SECRET = "sk-doctor-secret-0123456789";

describe("stretto doctor", function () {
  this.timeout(60_000);
  after(cleanTemp);

  it("with nothing on PATH: a missing proxy is a problem, a missing demo a note; exit 1", async () => {
    const home = tempDir("stretto-doctor-home-");
    const r = await stretto(["doctor"], { env: { HOME: home } });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^stretto 0\.1\.0 \(.*stretto\.js\)\n\n/);
    const lines = r.stdout.split("\n");
    assert.ok(lines.some((l) => l.startsWith("problem  stretto-proxy is not on PATH (MCP hosts run it to record sessions and serve flows). ")), r.stdout);
    assert.ok(lines.some((l) => l.startsWith("note     stretto-procedure is not on PATH ")));
    assert.ok(lines.some((l) => l.startsWith("note     stretto-mcp-demo is not on PATH ")));
    assert.ok(r.stdout.includes(`note     ${home}/.stretto does not exist yet; \`stretto-proxy --record\` creates it\n`), r.stdout);
    assert.ok(r.stdout.includes("note     no flows in ~/.stretto yet (`stretto learn` writes one)\n"));
    assert.equal(r.stderr, "stretto: 1 problem to fix\n");
  });

  it("finds the companions on PATH and compares their versions", async () => {
    const bin = tempDir("stretto-doctor-bin-");
    const proxy = fakeBin(bin, "stretto-proxy", `exec "${NODE}" "${PROXY}" "$@"`);
    const demo = fakeBin(bin, "stretto-mcp-demo", `exec "${NODE}" "${DEMO}" "$@"`);
    const procedure = fakeBin(bin, "stretto-procedure", `exec "${NODE}" "${PROCEDURE}" "$@"`);
    const data = tempDir("stretto-doctor-data-");
    const good = await stretto(["doctor", "--data", data], { path: bin, env: { TYPESAFE_API_KEY: SECRET } });
    assert.equal(good.code, 0, good.stdout + good.stderr);
    for (const [name, path] of [["stretto-proxy", proxy], ["stretto-mcp-demo", demo], ["stretto-procedure", procedure]]) {
      assert.ok(good.stdout.includes(`ok       ${name} 0.1.0 (${path})\n`), good.stdout);
    }
    assert.ok(good.stdout.includes(`ok       ${data} exists and is writable\n`));
    assert.ok(good.stdout.includes("ok       TYPESAFE_API_KEY is set (its value is not shown)"));
    assert.equal(good.stderr, "");
    assert.ok(!good.stdout.includes(SECRET));

    fakeBin(bin, "stretto-proxy", 'echo "stretto-proxy 9.9.9"');
    fakeBin(bin, "stretto-mcp-demo", "exit 3");
    const mixed = await stretto(["doctor", "--data", data], { path: bin });
    assert.equal(mixed.code, 1);
    assert.ok(mixed.stdout.includes(`problem  stretto-proxy 9.9.9 (${proxy}) is not stretto 0.1.0's: install them together.`), mixed.stdout);
    assert.ok(mixed.stdout.includes(`problem  stretto-mcp-demo (${demo}) does not answer \`--version\` as stretto 0.1.0's does.`), mixed.stdout);
    assert.equal(mixed.stderr, "stretto: 2 problems to fix\n");
  });

  it("checks the data folder: missing, not a folder, and no HOME", async () => {
    const dir = tempDir("stretto-doctor-dir-");
    writeFileSync(join(dir, "file"), "");
    const notDir = await inProcess(["doctor", "--data", join(dir, "file")]);
    assert.equal(notDir.code, 1);
    assert.ok(notDir.stdout.includes(`problem  ${join(dir, "file")} is not a directory\n`), notDir.stdout);
    // A folder that exists but takes no new file, even for root: the probe's error is the reason.
    const readOnly = await inProcess(["doctor", "--data", "/proc/self/fdinfo"]);
    assert.equal(readOnly.code, 1);
    assert.match(readOnly.stdout, /^problem {2}\/proc\/self\/fdinfo is not writable: .+$/m);
    const noHome = await inProcess(["doctor"], { HOME: undefined, USERPROFILE: undefined });
    assert.ok(noHome.stdout.includes("problem  neither HOME nor USERPROFILE is set, so there is no ~/.stretto: pass --data\n"), noHome.stdout);
    assert.ok(!noHome.stdout.includes("no flows"));
  });

  it("reports the key by presence only", async () => {
    const data = tempDir("stretto-doctor-key-");
    const file = await inProcess(["doctor", "--data", data], { TYPESAFE_API_KEY: undefined, TYPESAFE_API_KEY_FILE: "/run/secrets/key" });
    assert.ok(file.stdout.includes("ok       TYPESAFE_API_KEY_FILE is set, so stretto reads the key from that file;"), file.stdout);
    const none = await inProcess(["doctor", "--data", data], { TYPESAFE_API_KEY: undefined, TYPESAFE_API_KEY_FILE: undefined });
    assert.ok(none.stdout.includes("note     TYPESAFE_API_KEY is not set. It is optional:"), none.stdout);
    const empty = await inProcess(["doctor", "--data", data], { TYPESAFE_API_KEY: "", TYPESAFE_API_KEY_FILE: undefined });
    assert.ok(empty.stdout.includes("note     TYPESAFE_API_KEY is not set."));
  });

  it("lists flows by how they decide, and sessions per folder, but not flow logs or the cache", async () => {
    const flows = await makeFlows();
    const data = tempDir("stretto-doctor-scan-");
    const copy = (from: string, to: string) => {
      writeFileSync(join(data, to), readFileSync(from, "utf8"));
    };
    copy(flows.habit, "a-habit.flow.json");
    copy(flows.reach, "b-reach.flow.json");
    copy(flows.arbiter, "c-arbiter.flow.json");
    writeFileSync(join(data, "d-broken.flow.json"), "{}");
    const log = (domain: string | null, n: number) => shopLog(`s${n}`, usualSession(n)).replace('"domain":null', JSON.stringify({ domain }).slice(1, -1));
    mkdirSync(join(data, "logs", "shop"), { recursive: true });
    writeFileSync(join(data, "logs", "shop", "s1.jsonl"), log("shop", 1));
    writeFileSync(join(data, "logs", "shop", "s2.jsonl"), log(null, 2));
    writeFileSync(join(data, "logs", "shop", "s1.flow.jsonl"), "{}\n");
    writeFileSync(join(data, "logs", "shop", "s1.confirm.jsonl"), "{}\n");
    mkdirSync(join(data, "shadow", "orders"), { recursive: true });
    writeFileSync(join(data, "shadow", "orders", "s3.jsonl"), log("orders", 3));
    mkdirSync(join(data, "oracle-cache", "ab"), { recursive: true });
    writeFileSync(join(data, "oracle-cache", "x.jsonl"), log("cache", 4));
    writeFileSync(join(data, "oracle-cache", "x.flow.json"), "{}");
    mkdirSync(join(data, "shop.flow.json.history"), { recursive: true });
    writeFileSync(join(data, "shop.flow.json.history", "1.flow.json"), "{}");
    mkdirSync(join(data, "a", "b", "c"), { recursive: true });
    writeFileSync(join(data, "a", "b", "c", "deep.jsonl"), log("deep", 5));

    const r = await inProcess(["doctor", "--data", data]);
    const lines = r.stdout.split("\n");
    const at = lines.findIndex((l) => l.startsWith("ok       4 flows in "));
    assert.ok(at > 0, r.stdout);
    assert.deepEqual(lines.slice(at + 1, at + 4), [
      `           ${join(data, "a-habit.flow.json")}: domain shop, from 6 sessions, decides on its habit alone (serve it with \`--flow-decider habit\`, no key)`,
      `           ${join(data, "b-reach.flow.json")}: domain shop, from 6 sessions, decides on its habit and what comes before a write (\`--flow-decider reach\`, no key)`,
      `           ${join(data, "c-arbiter.flow.json")}: domain shop, from 6 sessions, decides with an arbiter, which asks Jev when served (\`--flow-decider habit\` needs no key)`,
    ]);
    assert.match(lines[at + 4]!, /d-broken\.flow\.json: this stretto cannot read it \(.+\)$/);
    assert.deepEqual(lines.slice(at + 5, at + 8), [
      `ok       recorded sessions in ${data}:`,
      "           logs/shop: 2 sessions, domain none, shop",
      "           shadow/orders: 1 session, domain orders",
    ]);
    assert.equal(lines[at + 8], "");
  });

  describe("--network", () => {
    const jev = new FakeJev();
    let base: string;
    before(async () => (base = await jev.start()));
    after(() => jev.stop());

    it("asks Jev one question with the key, and never shows the key", async () => {
      const data = tempDir("stretto-doctor-net-");
      const noKey = await inProcess(["doctor", "--network", "--data", data], { TYPESAFE_API_KEY: undefined, TYPESAFE_API_KEY_FILE: undefined, TYPESAFE_BASE_URL: base });
      assert.ok(noKey.stdout.includes("note     --network: no key is set, so Jev was not asked\n"));
      assert.equal(jev.received.length, 0);

      const ok = await stretto(["doctor", "--network", "--data", data], { env: { TYPESAFE_API_KEY: SECRET, TYPESAFE_BASE_URL: base } });
      assert.match(ok.stdout, new RegExp(`^ok       Jev OK: model ${FAKE_MODEL}, P\\(yes\\) = 0\\.800, 100 input tokens, \\d+ ms$`, "m"));
      assert.equal(jev.received.length, 1);
      assert.equal(jev.received[0]!.headers.authorization, `Bearer ${SECRET}`);
      assert.ok(!ok.stdout.includes(SECRET) && !ok.stderr.includes(SECRET));

      jev.script({ status: 503, body: "Jev is down" });
      const down = await inProcess(["doctor", "--network", "--data", data], { TYPESAFE_API_KEY: SECRET, TYPESAFE_BASE_URL: base });
      assert.equal(down.code, 1);
      assert.ok(down.stdout.includes("problem  Jev did not answer: TypeSafe returned 503 Service Unavailable: Jev is down\n"), down.stdout);
      assert.equal(jev.received.length, 1, "asked once, with no retry");
      assert.ok(!down.stdout.includes(SECRET) && !down.stderr.includes(SECRET));
    });
  });
});
