/**
 * More of `stretto console`'s API against the real server: an empty data directory, a broken
 * registry, an http server probed with a header from the environment, a console without the
 * CLI (all one process), and jobs over a copy of fixtures/console (a second process): the
 * queue, a stage job then commit and roll back, an audit job, and a cancel while a child of
 * the CLI holds its output.
 */
import assert from "node:assert/strict";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import type { FlowList, Job, JobList, Overview, ProbeResult, ServerList, SessionList, StageView, VersionView } from "../../lib/console/api-types.js";
import { DEMO, NODE, STRETTO, killAll, start, tempDir } from "../helpers/processes.js";
import { CONSOLE_BIN, TOKEN, ask, eventually, fixtureCopy, get, serve, sse, type Served } from "./api-kit.js";

const SECRET = "Bearer demo-secret-4f1c9a";
const STALE = "20260921T103000.000Z-0a1b";
const ENDED = new Set(["succeeded", "failed", "cancelled"]);

async function submit(base: string, body: object): Promise<Job> {
  const a = await ask(base, "/api/jobs", { method: "POST", body: JSON.stringify(body) });
  assert.equal(a.status, 202, a.text);
  return a.json as Job;
}

function ended(base: string, id: string, timeoutMs = 45_000): Promise<Job> {
  return eventually(async () => {
    const j = await get<Job>(base, `/api/jobs/${id}`);
    return ENDED.has(j.status) ? j : undefined;
  }, `job ${id} to end`, timeoutMs);
}

/** Starts `stretto-mcp-demo --http` on a free loopback port; resolves with its URL. */
function demoOverHttp(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = start(NODE, [DEMO, "--world", "retail", "--http", "127.0.0.1:0", "--require-auth", SECRET]);
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
      if (m !== null) resolve({ child, url: m[1]! });
    });
    child.once("exit", (code) => reject(new Error(`stretto-mcp-demo --http exited with ${code}`)));
  });
}

describe("stretto console: an empty data directory, the http probe, no CLI", function () {
  this.timeout(60_000);
  let s: Served;
  let base: string;
  let data: string;

  before(async () => {
    const root = tempDir("stretto-console-more-");
    data = join(root, "data");
    mkdirSync(data);
    // The console looks for the CLI beside its own script and then on PATH: a link to the
    // script in a folder of its own, and a PATH with nothing on it, leave it without one.
    const alone = join(root, "alone");
    mkdirSync(alone);
    symlinkSync(CONSOLE_BIN, join(alone, "stretto-console.js"));
    const emptyPath = join(root, "empty-path");
    mkdirSync(emptyPath);
    s = await serve(["--data", data, "--token", TOKEN], { HOME: root, PATH: emptyPath, DEMO_AUTH: SECRET, DEMO_BAD: "demo-secret\nline" }, join(alone, "stretto-console.js"));
    base = s.base;
  });
  after(() => killAll());

  it("an empty data directory answers with empty lists", async () => {
    const o = await get<Overview>(base, "/api/overview");
    assert.equal(o.totals.sessions, 0);
    assert.equal(o.totals.flows, 0);
    assert.equal(o.totals.servers, 0);
    assert.deepEqual(o.domains, []);
    assert.deepEqual(o.recent_sessions, []);
    assert.deepEqual(o.jobs, []);
    assert.equal(o.activity.length, 14);
    assert.ok(o.activity.every((d) => d.sessions === 0 && d.tool_calls === 0 && d.flow_lookups === 0));
    assert.deepEqual(await get<SessionList>(base, "/api/sessions"), { total: 0, items: [] });
    assert.deepEqual(await get<FlowList>(base, "/api/flows"), { items: [] });
    assert.deepEqual((await get<ServerList>(base, "/api/servers")).items, []);
    assert.deepEqual(await get<JobList>(base, "/api/jobs"), { items: [] });
  });

  it("a job without the CLI fails and says why", async () => {
    const job = await submit(base, { kind: "doctor" });
    const done = await ended(base, job.id);
    assert.equal(done.status, "failed");
    assert.equal(done.exit_code, null);
    assert.match(done.output, /stretto-console: the stretto CLI was not found beside the console or on PATH; pass --stretto PATH\n$/);
    assert.match(s.stderr(), /the stretto CLI is not beside the console or on PATH, so jobs cannot run/);
  });

  it("an http server is probed with its header from the environment, and the value is never shown", async () => {
    const demo = await demoOverHttp();
    const input = { name: "remote", upstream: { kind: "http", url: demo.url, headers: [{ name: "Authorization", env: "DEMO_AUTH" }] }, mode: "record" };
    const created = await ask(base, "/api/servers", { method: "POST", body: JSON.stringify(input) });
    assert.equal(created.status, 200, created.text);
    const p = await ask(base, "/api/servers/remote/probe", { method: "POST" });
    const r = p.json as ProbeResult;
    assert.equal(r.ok, true, r.error ?? "");
    assert.equal(r.server_name, "stretto-mcp-demo");
    assert.deepEqual(r.tools.map((t) => t.name), ["cancel_pending_order", "find_user_id_by_email", "get_order_details", "get_user_details"]);
    // The same server without the header is refused by the demo: the header did the work.
    const bare = await ask(base, "/api/servers", { method: "POST", body: JSON.stringify({ ...input, name: "bare", upstream: { kind: "http", url: demo.url } }) });
    assert.equal(bare.status, 200, bare.text);
    const refused = (await ask(base, "/api/servers/bare/probe", { method: "POST" })).json as ProbeResult;
    assert.equal(refused.ok, false);
    assert.match(refused.error ?? "", /HTTP 401/);
    // A value that is no header value is refused by name, without showing it.
    const odd = await ask(base, "/api/servers", { method: "POST", body: JSON.stringify({ ...input, name: "odd", upstream: { kind: "http", url: demo.url, headers: [{ name: "Authorization", env: "DEMO_BAD" }] } }) });
    assert.equal(odd.status, 200, odd.text);
    const bad = (await ask(base, "/api/servers/odd/probe", { method: "POST" })).json as ProbeResult;
    assert.equal(bad.ok, false);
    assert.equal(bad.error, "DEMO_BAD does not hold a valid header value");
    const answers = [created.text, p.text, JSON.stringify(refused), JSON.stringify(bad)];
    for (const path of ["/api/servers", "/api/servers/remote", "/api/settings", "/api/overview", "/api/meta", "/api/servers/remote/config?host=claude-code"]) answers.push((await ask(base, path)).text);
    for (const a of answers) assert.ok(!a.includes("demo-secret"), a.slice(0, 300));
    assert.ok(!s.stderr().includes("demo-secret"));
    assert.ok(!readFileSync(join(data, "servers.json"), "utf8").includes("demo-secret"));
    for (const name of ["remote", "bare", "odd"]) assert.equal((await ask(base, `/api/servers/${name}`, { method: "DELETE" })).status, 200);
    demo.child.kill("SIGKILL");
  });

  it("a broken registry answers 500 and is not overwritten", async () => {
    const broken = '{"stretto_servers": 1, "servers": [ broken\n';
    const file = join(data, "servers.json");
    writeFileSync(file, broken);
    const list = await ask(base, "/api/servers");
    assert.equal(list.status, 500);
    assert.match((list.json as { error: string }).error, /^servers\.json is not a server registry: /);
    const input = { name: "files", upstream: { kind: "stdio", command: ["stretto-mcp-demo"] }, mode: "record" };
    const create = await ask(base, "/api/servers", { method: "POST", body: JSON.stringify(input) });
    assert.equal(create.status, 500, create.text);
    assert.equal((await ask(base, "/api/servers/files", { method: "PUT", body: JSON.stringify(input) })).status, 500);
    assert.equal((await ask(base, "/api/servers/files", { method: "DELETE" })).status, 500);
    assert.equal(readFileSync(file, "utf8"), broken);
    assert.deepEqual(readdirSync(data).filter((f) => f.endsWith(".tmp")), []);
  });
});

describe("stretto console: jobs over the fixtures", function () {
  this.timeout(90_000);
  let s: Served;
  let base: string;

  before(async () => {
    const { data, bin } = fixtureCopy();
    // The CLI the console runs: the real one, except that `doctor` with a `hold` file in the
    // data directory leaves a child holding its output and waits. A stand-in, because the real
    // CLI never leaves such a child, and the console must end a cancelled job all the same.
    const cli = join(bin, "stretto");
    writeFileSync(
      cli,
      `#!/bin/sh\nif [ "$1" = doctor ] && [ -e hold ]; then\n  sleep 60 &\n  echo $! > hold.pid\n  echo holding\n  exec sleep 60\nfi\nexec "${NODE}" "${STRETTO}" "$@"\n`,
    );
    chmodSync(cli, 0o755);
    // A job the last console left running.
    const jobs = join(data, "console/jobs");
    mkdirSync(jobs, { recursive: true });
    const stale = { id: STALE, kind: "doctor", title: "Check the installation", params: {}, status: "running", created_unix_ms: 1_790_000_000_000, started_unix_ms: 1_790_000_000_100, finished_unix_ms: null, exit_code: null, alarm: false, artifacts: [] };
    writeFileSync(join(jobs, `${STALE}.json`), JSON.stringify(stale));
    writeFileSync(join(jobs, `${STALE}.log`), "$ stretto doctor\n");
    s = await serve(["--data", data, "--token", TOKEN, "--stretto", cli], { ...process.env, PATH: `${bin}:${process.env["PATH"] ?? ""}` });
    base = s.base;
  });
  after(() => killAll());

  it("a job the last console left running is failed at start", async () => {
    const j = await get<Job>(base, `/api/jobs/${STALE}`);
    assert.equal(j.status, "failed");
    assert.notEqual(j.finished_unix_ms, null);
    assert.equal(j.output, "$ stretto doctor\nstretto-console: the console stopped before this job finished\n");
    assert.equal((JSON.parse(readFileSync(join(s.data, `console/jobs/${STALE}.json`), "utf8")) as Job).status, "failed");
  });

  it("jobs run one at a time and report their artifacts", async () => {
    const events = await sse(base, "/api/events");
    try {
      const a = await submit(base, { kind: "learn", domain: "shop", sessions: "logs/shop", out: "learned/a.flow.json" });
      const b = await submit(base, { kind: "learn", domain: "shop", sessions: "logs/shop", out: "learned/b.flow.json" });
      const [da, db] = [await ended(base, a.id), await ended(base, b.id)];
      for (const [j, name] of [[da, "a"], [db, "b"]] as const) {
        assert.equal(j.status, "succeeded", j.output);
        assert.deepEqual(j.artifacts.map((x) => [x.kind, x.path, x.key]), [["flow", `learned/${name}.flow.json`, name]]);
      }
      assert.ok(db.started_unix_ms! >= da.finished_unix_ms!);
      // In the events, the second job starts only after the first ended.
      await events.until((e) => e.event === "job" && (JSON.parse(e.data) as Job).id === b.id && (JSON.parse(e.data) as Job).status === "succeeded");
      const seen = events.events.filter((e) => e.event === "job").map((e) => JSON.parse(e.data) as Job);
      const firstEnd = seen.findIndex((j) => j.id === a.id && ENDED.has(j.status));
      const secondStart = seen.findIndex((j) => j.id === b.id && j.status === "running");
      assert.ok(firstEnd >= 0 && secondStart > firstEnd, JSON.stringify(seen.map((j) => [j.id, j.status])));
    } finally {
      events.close();
    }
  });

  it("a stage job runs from the recorded sessions and again with five more; its flow is committed and rolled back", async () => {
    const job = await submit(base, { kind: "stage", flow: "shop", sessions: "logs/shop" });
    const done = await ended(base, job.id);
    assert.equal(done.status, "succeeded", done.output);
    assert.match(done.output, /^\$ stretto stage --flow /);
    assert.deepEqual(done.artifacts.map((x) => x.kind), ["flow", "report", "report"]);
    assert.equal(done.artifacts[0]!.path, "shop.staged.flow.json");
    assert.equal(done.artifacts[0]!.key, "shop.staged");
    for (let i = 1; i < 3; i++) assert.equal((await ask(base, `/api/jobs/${job.id}/artifacts/${i}`)).status, 200);
    const view = await get<StageView>(base, "/api/flows/shop/stage");
    assert.equal(view.staged?.key, "shop.staged");
    assert.deepEqual([view.last?.sessions, view.last?.new], [6, 6]);
    // Again with five more: the two served and three shadow sessions beside the six recorded.
    const more = join(s.data, "staging/shop");
    mkdirSync(more, { recursive: true });
    for (const dir of ["logs/shop", "served/shop", "shadow/shop"]) cpSync(join(s.data, dir), more, { recursive: true });
    const again = await ended(base, (await submit(base, { kind: "stage", flow: "shop.staged", sessions: "staging/shop" })).id);
    assert.equal(again.status, "succeeded", again.output);
    const second = await get<StageView>(base, "/api/flows/shop/stage");
    assert.deepEqual([second.last?.sessions, second.last?.new], [11, 5]);
    const before = readFileSync(join(s.data, "shop.flow.json"), "utf8");
    const committed = await ask(base, "/api/flows/shop/commit", { method: "POST", body: JSON.stringify({ note: "staged by a job" }) });
    assert.equal(committed.status, 200, committed.text);
    assert.equal((committed.json as VersionView).kind, "commit");
    assert.equal(readFileSync(join(s.data, "shop.flow.json"), "utf8"), readFileSync(join(s.data, "shop.staged.flow.json"), "utf8"));
    const back = await ask(base, "/api/flows/shop/rollback", { method: "POST" });
    assert.equal(back.status, 200, back.text);
    assert.equal((back.json as VersionView).kind, "rollback");
    assert.equal(readFileSync(join(s.data, "shop.flow.json"), "utf8"), before);
  });

  it("an audit job succeeds with its reports", async () => {
    const job = await submit(base, { kind: "audit", flow: "shop", sessions: "logs/shop" });
    const done = await ended(base, job.id);
    assert.equal(done.status, "succeeded", done.output);
    assert.deepEqual(done.artifacts.map((x) => [x.kind, x.path]), [
      ["report", `console/jobs/${job.id}.audit.json`],
      ["report", `console/jobs/${job.id}.audit.md`],
    ]);
    const json = await ask(base, `/api/jobs/${job.id}/artifacts/0`);
    assert.equal(json.status, 200);
    assert.match(json.headers.get("content-type") ?? "", /^application\/json/);
    assert.ok(json.json !== undefined);
  });

  it("a cancelled job ends though a child holds its output", async () => {
    const hold = join(s.data, "hold");
    writeFileSync(hold, "");
    try {
      const job = await submit(base, { kind: "doctor" });
      await eventually(async () => ((await get<Job>(base, `/api/jobs/${job.id}`)).output.includes("holding") ? true : undefined), "the CLI to leave its child");
      const cancel = await ask(base, `/api/jobs/${job.id}/cancel`, { method: "POST" });
      assert.equal(cancel.status, 200, cancel.text);
      const done = await ended(base, job.id, 10_000);
      assert.equal(done.status, "cancelled");
      assert.equal(done.exit_code, 137);
      assert.match(done.output, /stretto-console: cancelled\n$/);
    } finally {
      rmSync(hold, { force: true });
      const pidFile = join(s.data, "hold.pid");
      if (existsSync(pidFile)) {
        try {
          process.kill(Number(readFileSync(pidFile, "utf8").trim()), "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    }
  });
});
