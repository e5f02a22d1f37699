/**
 * `stretto console`'s API against the real server: the built stretto-console as a process over
 * a copy of fixtures/console (12 sessions: 6 recorded shop, 2 served, 3 in shadow, 1 judged
 * retail; flows shop and shop.promoted; servers shop and orders), one process for the file.
 * Jobs run the built stretto CLI; the probe starts the demo server; the live test records a
 * session through a real stretto-proxy driven by the SDK client while an event stream follows it.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { FlowDetail, FlowDiffView, FlowList, HostConfig, Job, Overview, ProbeResult, ServerList, ServerView, SessionDetail, SessionList, Settings, StageView, VersionView } from "../../lib/console/api-types.js";
import { DEMO, NODE, PROXY, killAll } from "../helpers/processes.js";
import { FIXTURES, TOKEN, ask, eventually, fixtureCopy, get, serve, sse, type Served } from "./api-kit.js";

const SECURITY = ["content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options"];

describe("stretto console: the API", function () {
  this.timeout(60_000);
  let s: Served;
  let base: string;

  before(async () => {
    const { data, bin } = fixtureCopy();
    s = await serve(["--data", data, "--token", TOKEN], { ...process.env, PATH: `${bin}${delimiter}${process.env["PATH"] ?? ""}` });
    base = s.base;
  });
  after(() => killAll());

  describe("access", () => {
    it("health needs no token, everything else does, and every answer has the security headers", async () => {
      const health = await ask(base, "/api/health", { token: null });
      assert.equal(health.status, 200);
      assert.deepEqual(health.json, { ok: true, version: "0.1.0" });
      for (const path of ["/api/meta", "/api/overview", "/api/sessions", "/api/flows", "/api/servers", "/api/jobs", "/api/settings", "/api/events"]) {
        const a = await ask(base, path, { token: null });
        assert.equal(a.status, 401, path);
        assert.match((a.json as { error: string }).error, /^sign in: /);
        assert.equal(a.headers.get("www-authenticate"), "Bearer");
        assert.equal(a.headers.get("cache-control"), "no-store");
        for (const h of SECURITY) assert.ok(a.headers.get(h), `${path} ${h}`);
      }
      const wrong = await ask(base, "/api/meta", { token: "0".repeat(64) });
      assert.equal(wrong.status, 401);
      const cookie = await ask(base, "/api/meta", { token: null, headers: { Cookie: `theme=dark; stretto_console=${TOKEN}; other=1` } });
      assert.equal(cookie.status, 200);
      const ui = await ask(base, "/", { token: null });
      for (const h of SECURITY) assert.ok(ui.headers.get(h), `/ ${h}`);
    });

    it("the token in a link becomes a cookie, and logging out clears it", async () => {
      const link = await ask(base, `/sessions/x?view=raw&token=${TOKEN}`, { token: null });
      assert.equal(link.status, 303);
      assert.equal(link.headers.get("location"), "/sessions/x?view=raw");
      assert.equal(link.headers.get("set-cookie"), `stretto_console=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`);
      const root = await ask(base, `/?token=${TOKEN}`, { token: null });
      assert.equal(root.headers.get("location"), "/");
      const wrong = await ask(base, "/?token=nope", { token: null });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.headers.get("set-cookie"), null);
      assert.match(wrong.text, /This link's token is not this console's/);
      const out = await ask(base, "/api/logout", { method: "POST" });
      assert.equal(out.status, 200);
      assert.match(out.headers.get("set-cookie") ?? "", /^stretto_console=; .*Max-Age=0/);
    });

    it("a change needs the write header, and a token before that", async () => {
      const body = JSON.stringify({ kind: "doctor" });
      const none = await ask(base, "/api/jobs", { method: "POST", body, write: false });
      assert.equal(none.status, 403);
      assert.equal((none.json as { error: string }).error, "a change needs the header X-Stretto-Console: 1, which the console's UI sends");
      const yes = await ask(base, "/api/jobs", { method: "POST", body, headers: { "X-Stretto-Console": "yes" }, write: false });
      assert.equal(yes.status, 403);
      const anon = await ask(base, "/api/jobs", { method: "POST", body, token: null });
      assert.equal(anon.status, 401);
    });

    it("unknown paths, wrong methods and missing UI files", async () => {
      assert.equal((await ask(base, "/api/sessions/..%2F..%2Fetc%2Fpasswd")).status, 404);
      assert.equal((await ask(base, "/api/flows/%2E%2E")).status, 404);
      const put = await ask(base, "/api/overview", { method: "PUT" });
      assert.equal(put.status, 405);
      assert.equal((put.json as { error: string }).error, "PUT is not allowed on /api/overview");
      const nope = await ask(base, "/api/nope");
      assert.equal(nope.status, 404);
      assert.equal((nope.json as { error: string }).error, "no such endpoint: GET /api/nope");
      assert.equal((await ask(base, "/api")).status, 404);
      assert.equal((await ask(base, "/assets/missing.js")).status, 404);
      assert.equal((await ask(base, "/anything", { method: "POST" })).status, 405);
    });

    it("paths with .. or symbolic links out of the data directory are refused", async () => {
      const outside = join(s.data, "..", "outside");
      mkdirSync(outside, { recursive: true });
      writeFileSync(join(outside, "20260101T000000.000Z-1.jsonl"), readFileSync(join(s.data, "logs/retail", readdirSync(join(s.data, "logs/retail")).find((f) => !f.includes(".confirm"))!)));
      symlinkSync(outside, join(s.data, "escape"));
      symlinkSync(join(outside, "20260101T000000.000Z-1.jsonl"), join(s.data, "linked.jsonl"));
      const list = await get<SessionList>(base, "/api/sessions");
      assert.equal(list.total, 12, "a link out of the data directory is not scanned");
      for (const sessions of ["../outside", "escape", join(outside)]) {
        const a = await ask(base, "/api/jobs", { method: "POST", body: JSON.stringify({ kind: "learn", domain: "shop", sessions }) });
        assert.equal(a.status, 403, `${sessions}: ${a.text}`);
      }
      const flow = await ask(base, "/api/servers", { method: "POST", body: JSON.stringify({ name: "evil", upstream: { kind: "stdio", command: ["x"] }, mode: "serve", flow: "../../etc/x.flow.json" }) });
      assert.equal(flow.status, 400);
      assert.match((flow.json as { error: string }).error, /^flow: .*climbs out/);
    });
  });

  describe("data", () => {
    it("the overview counts the fixtures", async () => {
      const o = await get<Overview>(base, "/api/overview");
      assert.equal(o.totals.sessions, 12);
      assert.deepEqual(o.domains.map((d) => d.name), ["orders", "retail", "shop"]);
      assert.deepEqual(o.domains.find((d) => d.name === "shop")!.modes, { recorded: 6, shadow: 3, served: 2 });
      assert.deepEqual(o.domains.find((d) => d.name === "shop")!.flows, ["shop", "shop.promoted"]);
      assert.equal(o.activity.length, 14);
      assert.equal(o.recent_sessions.length, 8);
      assert.equal(o.totals.servers, 2);
      assert.deepEqual(o.health.filter((h) => h.level === "error"), []);
    });

    it("settings say where everything is", async () => {
      const st = await get<Settings>(base, "/api/settings");
      assert.equal(st.data_dir, s.data);
      assert.equal(st.sessions, 12);
      assert.equal(st.flows, 2);
      assert.deepEqual(st.binaries.map((b) => b.name), ["stretto", "stretto-proxy", "stretto-procedure", "stretto-mcp-demo"]);
      assert.ok(st.disk.logs_bytes > 0 && st.disk.flows_bytes > 0);
      assert.equal(st.disk.total_bytes, st.disk.logs_bytes + st.disk.flows_bytes + st.disk.cache_bytes + st.disk.other_bytes);
      assert.match(st.retention_note, /stretto-proxy --retain-days N/);
      assert.match(st.retention_note, /console\/trash\//);
    });

    it("sessions are listed newest first and filtered", async () => {
      const total = async (q: string) => (await get<SessionList>(base, `/api/sessions${q}`)).total;
      const all = await get<SessionList>(base, "/api/sessions");
      const starts = all.items.map((i) => i.started_unix_ms!);
      assert.deepEqual(starts, [...starts].sort((a, b) => b - a));
      assert.equal(await total("?domain=shop"), 11);
      assert.equal(await total("?domain=retail"), 1);
      assert.equal(await total("?mode=served"), 2);
      assert.equal(await total("?mode=shadow"), 3);
      assert.equal(await total("?mode=recorded"), 7);
      assert.equal(await total("?q=RETAIL"), 1);
      assert.equal(await total("?q=find_user_id"), 12);
      assert.equal((await get<SessionList>(base, "/api/sessions?limit=5&offset=10")).items.length, 2);
      const bad = await ask(base, "/api/sessions?mode=live");
      assert.equal(bad.status, 400);
      assert.equal((bad.json as { error: string }).error, 'mode "live": expected recorded, shadow or served');
    });

    it("a served session in full: the flow's lookups tied to its lookup decisions", async () => {
      const served = (await get<SessionList>(base, "/api/sessions?mode=served")).items.find((i) => i.flow_lookups === 3)!;
      const d = await get<SessionDetail>(base, `/api/sessions/${served.key}`);
      const lookups = d.calls.filter((c) => c.by === "flow");
      assert.equal(lookups.length, 3);
      for (const c of lookups) {
        assert.notEqual(c.decision, null);
        const decision = d.decisions[c.decision!]!;
        assert.equal(decision.action, "lookup");
        assert.equal(decision.tool, c.tool);
        assert.equal(decision.after, c.after);
        assert.equal(c.ok, true);
      }
      assert.ok(d.turns.length >= 2);
      assert.ok(d.tools.some((t) => t.name === "cancel_pending_order" && t.kind === "write"));
      assert.ok(d.events.some((e) => e.kind === "context"));
      const raw = await ask(base, `/api/sessions/${served.key}/raw`);
      assert.equal(raw.headers.get("content-type"), "application/x-ndjson");
      assert.match(raw.headers.get("content-disposition") ?? "", /^attachment; filename="\d{8}T\d{6}\.\d{3}Z-\d+\.jsonl"$/);
      assert.equal((await ask(base, "/api/sessions/nope")).status, 404);
    });

    it("the judged retail session: its confirm log and the write the guards refused", async () => {
      const [retail] = (await get<SessionList>(base, "/api/sessions?domain=retail")).items;
      assert.equal(retail!.has_confirm_log, true);
      assert.equal(retail!.mode, "recorded");
      const d = await get<SessionDetail>(base, `/api/sessions/${retail!.key}`);
      assert.ok(d.confirmations.length >= 1);
      const refused = d.calls.filter((c) => c.tool === "cancel_pending_order" && c.ok === false);
      assert.equal(refused.length, 1);
      assert.match(refused[0]!.result_text!, /^Refused by the policy check/);
    });

    it("flows are listed and reviewed, and a threshold of 0.95 makes nothing act", async () => {
      const flows = await get<FlowList>(base, "/api/flows");
      const shop = flows.items.find((f) => f.key === "shop")!;
      assert.equal(shop.decider, "reach");
      assert.equal(shop.domain, "shop");
      assert.deepEqual(shop.served_by, ["shop"]);
      assert.ok(flows.items.find((f) => f.key === "shop.promoted")!.promoted!.sites_promoted > 0);
      const at = await get<FlowDetail>(base, "/api/flows/shop?threshold=0.3");
      assert.ok((at.sites as { acts: boolean }[]).some((x) => x.acts));
      assert.match(at.review_markdown, /^# Flow: shop/);
      const high = await get<FlowDetail>(base, "/api/flows/shop?threshold=0.95");
      assert.equal((high.sites as { acts: boolean }[]).filter((x) => x.acts).length, 0);
      const bad = await ask(base, "/api/flows/shop?threshold=2");
      assert.equal((bad.json as { error: string }).error, "threshold 2: a probability, from 0 to 1");
      assert.equal((await ask(base, "/api/flows/shop/raw")).headers.get("content-type"), "application/json");
    });

    it("two flows are compared", async () => {
      const d = await get<FlowDiffView>(base, "/api/flows/diff?from=shop&to=shop.promoted");
      assert.deepEqual(d.sections.map((x) => x.title), ["Promotion"]);
      assert.equal(d.review, 0);
      assert.match(d.markdown, /^# Flow diff: /);
      assert.equal((await ask(base, "/api/flows/diff?from=shop")).status, 400);
    });

    it("a flow that does not load is listed with its error", async () => {
      const doc = JSON.parse(readFileSync(join(s.data, "shop.flow.json"), "utf8")) as Record<string, unknown>;
      writeFileSync(join(s.data, "broken.flow.json"), JSON.stringify({ ...doc, stretto_flow: 7 }));
      try {
        const broken = (await get<FlowList>(base, "/api/flows")).items.find((f) => f.key === "broken")!;
        assert.match(broken.error!, /7/);
        assert.equal((await ask(base, "/api/flows/broken")).status, 422);
        const o = await get<Overview>(base, "/api/overview");
        assert.ok(o.health.some((h) => h.level === "error" && h.message.startsWith("broken.flow.json: this stretto cannot read it")));
      } finally {
        await ask(base, "/api/flows/broken", { method: "DELETE" });
      }
    });
  });

  describe("staging", () => {
    it("a staged flow is shown against the committed one, committed, refused a second time, and rolled back", async () => {
      writeFileSync(join(s.data, "shop.staged.flow.json"), readFileSync(join(s.data, "shop.promoted.flow.json")));
      const view = await get<StageView>(base, "/api/flows/shop/stage");
      assert.equal(view.committed, "shop");
      assert.equal(view.staged?.key, "shop.staged");
      assert.equal(view.refused, null);
      assert.deepEqual(view.diff?.sections.map((x) => x.title), ["Promotion"]);
      const committed = await ask(base, "/api/flows/shop/commit", { method: "POST", body: JSON.stringify({ note: "  promoted  " }) });
      assert.equal(committed.status, 200, committed.text);
      assert.equal((committed.json as VersionView).kind, "commit");
      assert.equal((committed.json as VersionView).note, "promoted");
      const again = await ask(base, "/api/flows/shop/commit", { method: "POST" });
      assert.equal(again.status, 409);
      assert.equal((again.json as { error: string }).error, "the staged flow is the committed one: nothing to commit");
      const back = await ask(base, "/api/flows/shop/rollback", { method: "POST" });
      assert.equal(back.status, 200, back.text);
      assert.equal((back.json as VersionView).kind, "rollback");
      assert.equal(readFileSync(join(s.data, "shop.flow.json"), "utf8"), readFileSync(join(FIXTURES, "shop.flow.json"), "utf8"));
      const versions = (await get<StageView>(base, "/api/flows/shop/stage")).versions;
      assert.deepEqual(versions.map((v) => v.kind), ["rollback", "commit", "found"]);
    });
  });

  describe("servers", () => {
    it("the registry is listed with what the console knows", async () => {
      const list = await get<ServerList>(base, "/api/servers");
      assert.deepEqual(list.items.map((x) => x.name), ["shop", "orders"]);
      const shop = list.items[0]!;
      assert.deepEqual(shop.proxy_args, ["--record", join(s.data, "served/shop"), "--domain", "shop", "--flow", join(s.data, "shop.flow.json"), "--flow-decider", "reach", "--", "stretto-mcp-demo", "--world", "retail"]);
      assert.equal(shop.sessions, 11);
      assert.equal(shop.flow_summary?.key, "shop");
      assert.deepEqual(shop.issues, []);
      assert.deepEqual(list.items[1]!.proxy_args.slice(-4), ["--upstream", "https://orders.example.com/mcp", "--upstream-header", "Authorization=ORDERS_AUTH"]);
      assert.ok(list.discovered.some((d) => d.domain === "retail" && !d.registered));
    });

    it("servers are created, changed and removed; a secret is never kept", async () => {
      const input = { name: "files", upstream: { kind: "stdio", command: ["npx", "server-filesystem", "/tmp"], env: ["FS_KEY"] }, mode: "record" };
      const created = await ask(base, "/api/servers", { method: "POST", body: JSON.stringify(input) });
      assert.equal(created.status, 200, created.text);
      assert.equal((created.json as ServerView).record_dir, null);
      assert.equal((await ask(base, "/api/servers", { method: "POST", body: JSON.stringify(input) })).status, 409);
      const secret = await ask(base, "/api/servers/files", { method: "PUT", body: JSON.stringify({ ...input, upstream: { kind: "stdio", command: ["srv", "--api-key", "sk-live-123"] } }) });
      assert.equal(secret.status, 400);
      assert.doesNotMatch(secret.text, /sk-live-123/);
      assert.match((secret.json as { error: string }).error, /^argument 3 of the command looks like a credential/);
      const url = await ask(base, "/api/servers/files", { method: "PUT", body: JSON.stringify({ ...input, upstream: { kind: "http", url: "https://u:p@x.example/mcp" } }) });
      assert.equal(url.status, 400);
      const renamed = await ask(base, "/api/servers/files", { method: "PUT", body: JSON.stringify({ ...input, name: "files2", description: "  the files  " }) });
      assert.equal(renamed.status, 200, renamed.text);
      assert.equal((renamed.json as ServerView).description, "the files");
      const text = readFileSync(join(s.data, "servers.json"), "utf8");
      assert.doesNotMatch(text, /sk-live-123/);
      assert.ok(readdirSync(s.data).every((f) => !f.endsWith(".tmp")));
      assert.equal((await ask(base, "/api/servers/files2", { method: "DELETE" })).status, 200);
      assert.equal((await ask(base, "/api/servers/files2", { method: "DELETE" })).status, 404);
      const badName = await ask(base, "/api/servers", { method: "POST", body: JSON.stringify({ ...input, name: "Bad Name" }) });
      assert.equal(badName.status, 400);
    });

    it("host configuration is what stretto init prints", async () => {
      const code = await get<HostConfig>(base, "/api/servers/shop/config");
      assert.equal(code.language, "shell");
      assert.match(code.snippet, /^claude mcp add shop -- /);
      assert.match(code.next_steps, /^Next steps/);
      const cursor = await get<HostConfig>(base, "/api/servers/shop/config?host=cursor");
      assert.match((JSON.parse(cursor.snippet) as { mcpServers: { shop: { command: string } } }).mcpServers.shop.command, /stretto-proxy$/);
      assert.match(cursor.placement, /mcp\.json/);
      const vscode = await get<HostConfig>(base, "/api/servers/shop/config?host=vscode");
      assert.equal((JSON.parse(vscode.snippet) as { servers: { shop: { type: string } } }).servers.shop.type, "stdio");
      const bad = await ask(base, "/api/servers/shop/config?host=emacs");
      assert.equal((bad.json as { error: string }).error, 'host "emacs": expected claude-code, claude-desktop, cursor or vscode');
    });

    it("a stdio server is probed; an http server whose header variable is not set is not asked", async () => {
      const p = await ask(base, "/api/servers/shop/probe", { method: "POST" });
      const r = p.json as ProbeResult;
      assert.equal(r.ok, true, r.error ?? "");
      assert.equal(r.server_name, "stretto-mcp-demo");
      assert.deepEqual(r.tools.map((t) => t.name), ["cancel_pending_order", "find_user_id_by_email", "get_order_details", "get_user_details"]);
      // Without its header's variable the http server is not asked at all (no network in a test).
      const orders = await ask(base, "/api/servers/orders/probe", { method: "POST" });
      assert.equal((orders.json as ProbeResult).ok, false);
      assert.equal((orders.json as ProbeResult).error, "ORDERS_AUTH is not set in the console's environment, so the Authorization header cannot be sent");
      assert.equal((await ask(base, "/api/servers/none/probe", { method: "POST" })).status, 404);
    });
  });

  describe("jobs and events", () => {
    it("a learn job runs the CLI and writes a flow, with events on the way; then 409, then overwrite", async () => {
      const events = await sse(base, "/api/events");
      try {
        const body = { kind: "learn", domain: "shop", sessions: "logs/shop", out: "learned/shop.flow.json" };
        const queued = await ask(base, "/api/jobs", { method: "POST", body: JSON.stringify(body) });
        assert.equal(queued.status, 202, queued.text);
        const job = queued.json as Job;
        assert.match(job.id, /^\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{4}$/);
        assert.equal(job.title, "Learn shop from logs/shop");
        const done = await eventually(async () => {
          const j = await get<Job>(base, `/api/jobs/${job.id}`);
          return j.status === "succeeded" || j.status === "failed" ? j : undefined;
        }, "the learn job");
        assert.equal(done.status, "succeeded", done.output);
        assert.match(done.output, /^\$ stretto learn --sessions /);
        assert.deepEqual(done.artifacts.map((a) => [a.kind, a.path]), [["flow", "learned/shop.flow.json"]]);
        assert.match(done.artifacts[0]!.key!, /^shop~[0-9a-f]{8}$/);
        await events.until((e) => e.event === "job" && (JSON.parse(e.data) as Job).id === job.id && (JSON.parse(e.data) as Job).status === "succeeded");
        await events.until((e) => e.event === "changed" && (JSON.parse(e.data) as { what: string }).what === "flows");
        const again = await ask(base, "/api/jobs", { method: "POST", body: JSON.stringify(body) });
        assert.equal(again.status, 409);
        assert.equal((again.json as { error: string }).error, "learned/shop.flow.json exists: choose another path, or overwrite it");
        assert.equal((await ask(base, "/api/jobs", { method: "POST", body: JSON.stringify({ ...body, overwrite: true }) })).status, 202);
        const art = await ask(base, `/api/jobs/${job.id}/artifacts/0`);
        assert.equal(art.headers.get("content-type"), "application/json");
        assert.equal((await ask(base, `/api/jobs/${job.id}/artifacts/5`)).status, 404);
      } finally {
        events.close();
      }
    });

    it("a job is cancelled queued or running, and an ended one has nothing to cancel", async () => {
      // The doctor runs first; the learn behind it is cancelled while it waits, then the doctor, if it still runs.
      const first = (await ask(base, "/api/jobs", { method: "POST", body: JSON.stringify({ kind: "doctor" }) })).json as Job;
      const second = (await ask(base, "/api/jobs", { method: "POST", body: JSON.stringify({ kind: "learn", domain: "shop", sessions: "logs/shop", out: "learned/again.flow.json" }) })).json as Job;
      const cancelled = await ask(base, `/api/jobs/${second.id}/cancel`, { method: "POST" });
      assert.equal(cancelled.status, 200);
      assert.equal((cancelled.json as Job).status, "cancelled");
      assert.equal((cancelled.json as Job).started_unix_ms, null);
      assert.match((await get<Job>(base, `/api/jobs/${second.id}`)).output, /stretto-console: cancelled before it started\n$/);
      // Cancelled while it runs, or ended before the cancel reached it.
      await eventually(async () => ((await get<Job>(base, `/api/jobs/${first.id}`)).status === "queued" ? undefined : true), "the doctor job to start");
      await ask(base, `/api/jobs/${first.id}/cancel`, { method: "POST" });
      const ended = await eventually(async () => {
        const j = await get<Job>(base, `/api/jobs/${first.id}`);
        return j.status === "running" || j.status === "queued" ? undefined : j;
      }, "the doctor job to end");
      assert.ok(ended.status === "cancelled" || ended.status === "succeeded", ended.status);
      if (ended.status === "cancelled") {
        assert.equal(ended.exit_code, 137);
        assert.match(ended.output, /stretto-console: cancelled\n$/);
      }
      const again = await ask(base, `/api/jobs/${second.id}/cancel`, { method: "POST" });
      assert.equal(again.status, 409);
      assert.equal((again.json as { error: string }).error, `job ${second.id} has ended (cancelled): there is nothing to cancel`);
      assert.equal((await ask(base, "/api/jobs/nope/cancel", { method: "POST" })).status, 404);
      assert.equal((await ask(base, "/api/jobs", { method: "POST", body: JSON.stringify({ kind: "bake" }) })).status, 400);
    });

    it("a deleted session goes to the trash with its flow log", async () => {
      const served = (await get<SessionList>(base, "/api/sessions?mode=served")).items[0]!;
      assert.equal((await ask(base, `/api/sessions/${served.key}`, { method: "DELETE" })).status, 200);
      assert.equal((await ask(base, `/api/sessions/${served.key}`)).status, 404);
      const trash = join(s.data, "console", "trash");
      const stamp = readdirSync(trash).find((t) => existsSync(join(trash, t, "served", "shop")))!;
      const moved = readdirSync(join(trash, stamp, "served", "shop"));
      assert.deepEqual(moved.sort(), [`${served.session_id}.flow.jsonl`, `${served.session_id}.jsonl`]);
      assert.ok(!existsSync(join(s.data, served.path)));
    });
  });

  describe("live sessions", () => {
    it("a session recorded while an event stream follows it: the list marks it live and the stream carries its new lines", async () => {
      const folder = join(s.data, "live");
      mkdirSync(folder);
      const transport = new StdioClientTransport({
        command: NODE,
        args: [PROXY, "--record", folder, "--domain", "shop", "--", NODE, DEMO, "--world", "retail"],
        env: getDefaultEnvironment(),
        stderr: "pipe",
      });
      const client = new Client({ name: "live-spec", version: "0.1.0" });
      await client.connect(transport);
      try {
        const live = await eventually(async () => (await get<SessionList>(base, "/api/sessions?q=live-spec")).items.find((i) => i.live), "the live session in the list");
        const follow = await sse(base, `/api/sessions/${live.key}/follow?from=0`);
        try {
          const entry = (e: { event: string; data: string }) => {
            if (e.event !== "line") return undefined;
            const { line } = JSON.parse(e.data) as { line: string };
            return JSON.parse(line) as { from?: string; message?: { method?: string; params?: { name?: string; arguments?: { email?: string } }; result?: unknown } };
          };
          await follow.until((e) => entry(e)?.message?.method === "initialize");
          await client.callTool({ name: "find_user_id_by_email", arguments: { email: "c9@example.com" } });
          const call = await follow.until((e) => entry(e)?.from === "client" && entry(e)?.message?.params?.name === "find_user_id_by_email");
          assert.equal(entry(call)!.message!.params!.arguments!.email, "c9@example.com");
          const { line, offset } = JSON.parse(call.data) as { line: string; offset: number };
          assert.equal(readFileSync(join(s.data, live.path)).subarray(offset, offset + Buffer.byteLength(line)).toString(), line);
          await follow.until((e) => entry(e)?.from === "server" && JSON.stringify(entry(e)?.message?.result ?? null).includes("user_9"));
        } finally {
          follow.close();
        }
      } finally {
        await client.close();
      }
    });
  });
});
