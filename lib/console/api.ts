/**
 * The console's API under /api (docs/console-api.md): one handler per path and method, over
 * the store (sessions, flows), the registry, the job queue and the watcher. A handler throws
 * an ApiFailure for any answer but success; the server turns it into `{ error }`.
 */
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { merge, type Subscription } from "rxjs";
import type { DriftCheck, FlowSummary, HostName, Job, Meta, ServerEntry, ServerView, SessionSummary, Settings, StageView, VersionView } from "./api-types.js";
import { keyIsSet } from "../doctor/key.js";
import type { Flow } from "../flow/ir/index.js";
import { HOSTS } from "../init/index.js";
import { StageError, StageRefusal, flowCommit, flowRollback, historyOf, readRecord, readState, stagePaths, usedShare } from "../stage/index.js";
import { errorText } from "../util/error-text.js";
import { isObject } from "../util/is-object.js";
import { logout } from "./access.js";
import { BINARIES, type Found } from "./binaries.js";
import type { Catalog } from "./catalog.js";
import { requestPath, shownPath, PathError } from "./data-paths.js";
import { diskUse } from "./disk.js";
import type { Watcher } from "./events.js";
import { DEFAULT_THRESHOLD, flowDetail, flowDiffView, flowSummary, lookupTools, probability, type LoadedFlow } from "./flow-views.js";
import { followLog } from "./follow.js";
import { ApiFailure, badRequest, conflict, notFound, readJson, sendJson, unreadable } from "./http-kit.js";
import { jobId, type Jobs } from "./jobs.js";
import { planJob } from "./job-plans.js";
import { overview } from "./overview.js";
import { probe } from "./probe.js";
import type { Registry } from "./registry.js";
import { flowAbsOf, hostConfig, proxyArgs, serverIssues, type ViewContext } from "./server-views.js";
import { attachmentName, detailOf, summaryOf, listedTools, textOf, type ParsedSession } from "./session-view.js";
import { isUnreadable, type Store } from "./store.js";

export interface ApiContext {
  data: string;
  home: string | undefined;
  version: string;
  readOnly: boolean;
  auth: boolean;
  env: NodeJS.ProcessEnv;
  store: Store;
  registry: Registry;
  jobs: Jobs;
  watcher: Watcher;
  binaries: Map<string, { found: Found | undefined; version: string | null }>;
  view: ViewContext;
  /** Ends open event streams when the console stops. */
  stopping: Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL, params: string[]) => Promise<void> | void;

interface Route {
  pattern: RegExp;
  methods: Partial<Record<string, Handler>>;
}

const RETENTION_NOTE =
  "The console deletes nothing by itself: a session or flow deleted here moves to console/trash/ in the data directory. To keep logs from growing, run the proxy with stretto-proxy --retain-days N, which removes its own logs older than N days.";

const seg = "([^/]+)";

export class Api {
  private routes: Route[];

  constructor(private readonly c: ApiContext) {
    const r = (path: string, methods: Route["methods"]): Route => ({ pattern: new RegExp(`^${path}$`), methods });
    this.routes = [
      r("/api/health", { GET: (_q, res) => sendJson(res, 200, { ok: true, version: c.version }) }),
      r("/api/logout", { POST: (_q, res) => (logout(res), sendJson(res, 200, { ok: true })) }),
      r("/api/meta", { GET: (_q, res) => sendJson(res, 200, this.meta()) }),
      r("/api/settings", { GET: async (_q, res) => sendJson(res, 200, await this.settings()) }),
      r("/api/overview", { GET: async (_q, res) => sendJson(res, 200, await this.overview()) }),
      r("/api/sessions", { GET: async (_q, res, url) => sendJson(res, 200, await this.sessionList(url)) }),
      r(`/api/sessions/${seg}`, {
        GET: async (_q, res, _u, [key]) => sendJson(res, 200, detailOf(await this.session(key!))),
        DELETE: async (_q, res, _u, [key]) => {
          const f = (await this.sessionFile(key!)).file;
          c.store.trash([f.abs, ...(f.flowLog ? [f.flowLog] : []), ...(f.confirmLog ? [f.confirmLog] : [])]);
          sendJson(res, 200, { ok: true });
        },
      }),
      r(`/api/sessions/${seg}/raw`, {
        GET: async (_q, res, _u, [key]) => {
          const f = (await this.sessionFile(key!)).file;
          res.setHeader("Content-Type", "application/x-ndjson");
          res.setHeader("Content-Disposition", `attachment; filename="${attachmentName(f.abs)}"`);
          createReadStream(f.abs).pipe(res);
        },
      }),
      r(`/api/sessions/${seg}/follow`, { GET: (req, res, url, [key]) => this.follow(req, res, url, key!) }),
      r("/api/flows", { GET: async (_q, res) => sendJson(res, 200, { items: await this.flowSummaries() }) }),
      r("/api/flows/diff", { GET: async (_q, res, url) => sendJson(res, 200, await this.flowDiff(url)) }),
      r(`/api/flows/${seg}`, {
        GET: async (_q, res, url, [key]) => sendJson(res, 200, await this.flowDetail(key!, url)),
        DELETE: async (_q, res, _u, [key]) => {
          c.store.trash([(await this.flowFile(key!)).file.abs]);
          sendJson(res, 200, { ok: true });
        },
      }),
      r(`/api/flows/${seg}/raw`, {
        GET: async (_q, res, _u, [key]) => {
          const f = (await this.flowFile(key!)).file;
          res.setHeader("Content-Type", "application/json");
          res.setHeader("Content-Disposition", `attachment; filename="${attachmentName(f.abs)}"`);
          createReadStream(f.abs).pipe(res);
        },
      }),
      r(`/api/flows/${seg}/stage`, { GET: async (_q, res, _u, [key]) => sendJson(res, 200, await this.stageView(key!)) }),
      r(`/api/flows/${seg}/commit`, { POST: async (req, res, _u, [key]) => sendJson(res, 200, await this.commit(req, key!, false)) }),
      r(`/api/flows/${seg}/rollback`, { POST: async (req, res, _u, [key]) => sendJson(res, 200, await this.commit(req, key!, true)) }),
      r("/api/servers", {
        GET: async (_q, res) => sendJson(res, 200, await this.serverList()),
        POST: async (req, res) => sendJson(res, 200, await this.serverCreate(req)),
      }),
      r(`/api/servers/${seg}`, {
        PUT: async (req, res, _u, [name]) => sendJson(res, 200, await this.serverUpdate(req, name!)),
        DELETE: async (_q, res, _u, [name]) => {
          await c.registry.change((servers) => {
            if (!servers.some((s) => s.name === name)) throw notFound(`no server ${JSON.stringify(name)}`);
            return { servers: servers.filter((s) => s.name !== name), result: undefined };
          });
          sendJson(res, 200, { ok: true });
        },
      }),
      r(`/api/servers/${seg}/config`, { GET: (_q, res, url, [name]) => sendJson(res, 200, this.serverConfig(name!, url)) }),
      r(`/api/servers/${seg}/probe`, { POST: async (_q, res, _u, [name]) => sendJson(res, 200, await this.serverProbe(name!)) }),
      r("/api/jobs", {
        GET: (_q, res) => sendJson(res, 200, { items: c.jobs.list() }),
        POST: async (req, res) => sendJson(res, 202, await this.jobSubmit(req)),
      }),
      r(`/api/jobs/${seg}`, { GET: (_q, res, _u, [id]) => sendJson(res, 200, this.job(id!)) }),
      r(`/api/jobs/${seg}/cancel`, {
        POST: (_q, res, _u, [id]) => {
          const j = c.jobs.cancel(id!);
          if (j === undefined) throw notFound(`no job ${JSON.stringify(id)}`);
          if (j === "ended") throw conflict(`job ${id} has ended (${c.jobs.view(id!)!.status}): there is nothing to cancel`);
          sendJson(res, 200, j);
        },
      }),
      r(`/api/jobs/${seg}/artifacts/(\\d+)`, { GET: (_q, res, _u, [id, index]) => this.artifact(res, id!, Number(index)) }),
      r("/api/events", { GET: (req, res) => this.events(req, res) }),
    ];
  }

  /** Answers an /api request; false when no route has the path. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? "GET";
    for (const route of this.routes) {
      const m = route.pattern.exec(url.pathname);
      if (m === null) continue;
      const handler = route.methods[method] ?? (method === "HEAD" ? route.methods["GET"] : undefined);
      if (handler === undefined) throw new ApiFailure(405, `${method} is not allowed on ${url.pathname}`);
      let params: string[];
      try {
        params = m.slice(1).map((p) => decodeURIComponent(p));
      } catch {
        throw notFound(`no such endpoint: ${method} ${url.pathname}`);
      }
      await handler(req, res, url, params);
      return;
    }
    throw notFound(`no such endpoint: ${method} ${url.pathname}`);
  }

  // ---------- meta, settings, overview ----------

  private bin(name: string): { path: string; version: string | null } | null {
    const b = this.c.binaries.get(name);
    return b?.found === undefined ? null : { path: b.found.path, version: b.version };
  }

  private meta(): Meta {
    const c = this.c;
    return { version: c.version, data_dir: c.data, read_only: c.readOnly, auth: c.auth, key_set: keyIsSet(c.env), stretto: this.bin("stretto"), proxy: this.bin("stretto-proxy") };
  }

  private binaryList() {
    return BINARIES.map((name) => ({ name, path: this.bin(name)?.path ?? null, version: this.bin(name)?.version ?? null }));
  }

  private async settings(): Promise<Settings> {
    const c = this.c;
    const cat = await c.store.catalog();
    return {
      data_dir: c.data,
      disk: diskUse(c.data),
      sessions: cat.sessions.length,
      flows: cat.flows.length,
      key_set: keyIsSet(c.env),
      retention_note: RETENTION_NOTE,
      binaries: this.binaryList(),
      version: c.version,
      read_only: c.readOnly,
      auth: c.auth,
    };
  }

  private loadServers(): ServerEntry[] | string {
    try {
      return this.c.registry.load();
    } catch (e) {
      return errorText(e);
    }
  }

  private async overview() {
    const c = this.c;
    const cat = await c.store.catalog();
    const { summaries, unreadable: bad } = await this.summaries(cat);
    const servers = this.loadServers();
    const issues = new Map<string, string[]>();
    if (typeof servers !== "string") for (const s of servers) issues.set(s.name, serverIssues(s, c.view));
    return overview({
      data: c.data,
      readOnly: c.readOnly,
      version: c.version,
      env: c.env,
      summaries,
      unreadable: bad,
      flows: await c.store.flows(cat),
      servers,
      serverIssues: issues,
      jobs: c.jobs.list(),
      binaries: this.binaryList(),
      now: Date.now(),
    });
  }

  // ---------- sessions ----------

  private async summaries(cat?: Catalog): Promise<{ summaries: SessionSummary[]; parsed: ParsedSession[]; unreadable: { rel: string; error: string }[] }> {
    const all = await this.c.store.sessions(cat);
    const parsed = all.filter((s): s is ParsedSession => !isUnreadable(s));
    const now = Date.now();
    const summaries = parsed.map((p) => summaryOf(p, now));
    summaries.sort((a, b) => (b.started_unix_ms ?? 0) - (a.started_unix_ms ?? 0) || (a.session_id < b.session_id ? 1 : a.session_id > b.session_id ? -1 : 0));
    const unreadable = all.filter(isUnreadable).map((u) => ({ rel: u.file.rel, error: u.error }));
    return { summaries, parsed, unreadable };
  }

  private async sessionList(url: URL) {
    const q = (n: string) => {
      const v = url.searchParams.get(n);
      return v === null || v === "" ? undefined : v;
    };
    const mode = q("mode");
    if (mode !== undefined && !["recorded", "shadow", "served"].includes(mode)) throw badRequest(`mode ${JSON.stringify(mode)}: expected recorded, shadow or served`);
    const int = (n: string, fallback: number) => {
      const v = q(n);
      if (v === undefined) return fallback;
      if (!/^\d+$/.test(v)) throw badRequest(`${n} ${JSON.stringify(v)}: a whole number, 0 or more`);
      return Number(v);
    };
    const limit = Math.min(int("limit", 50), 500);
    const offset = int("offset", 0);
    const { summaries, parsed } = await this.summaries();
    const text = q("q")?.toLowerCase();
    const toolsOf = new Map(parsed.map((p) => [p.file.key, p]));
    const matches = summaries.filter((s) => {
      if (q("domain") !== undefined && s.domain !== q("domain")) return false;
      if (mode !== undefined && s.mode !== mode) return false;
      if (text === undefined) return true;
      if ([s.session_id, s.domain ?? "", s.agent ?? ""].some((f) => f.toLowerCase().includes(text))) return true;
      const p = toolsOf.get(s.key)!;
      return calledTools(p).some((t) => t.toLowerCase().includes(text));
    });
    return { total: matches.length, items: matches.slice(offset, offset + limit) };
  }

  private async sessionFile(key: string): Promise<{ file: ParsedSession["file"] }> {
    const cat = await this.c.store.catalog();
    const file = cat.sessions.find((s) => s.key === key);
    if (file === undefined) throw notFound(`no session ${JSON.stringify(key)}`);
    return { file };
  }

  private async session(key: string): Promise<ParsedSession> {
    const { file } = await this.sessionFile(key);
    const p = await this.c.store.session(file);
    if (isUnreadable(p)) throw unreadable(`${file.rel} is not a session log stretto can read: ${p.error}`);
    return p;
  }

  /** The session's log as it grows, one `line` event per line, from `?from=` (default: its end now). */
  private async follow(req: IncomingMessage, res: ServerResponse, url: URL, key: string): Promise<void> {
    const { file } = await this.sessionFile(key);
    const fromText = url.searchParams.get("from");
    const from = fromText === null || fromText === "" ? undefined : Number(fromText);
    if (from !== undefined && !(Number.isInteger(from) && from >= 0)) throw badRequest(`from ${JSON.stringify(fromText)}: a byte offset, 0 or more`);
    openStream(res);
    const sub = followLog(file.abs, from === undefined ? {} : { from }).subscribe({
      next: (l) => res.write(`event: line\ndata: ${JSON.stringify(l)}\n\n`),
      error: () => {
        res.write(`event: end\ndata: ${JSON.stringify({ reason: "removed" })}\n\n`);
        res.end();
      },
    });
    this.hold(req, res, sub);
  }

  // ---------- flows ----------

  private async flowFile(key: string): Promise<LoadedFlow> {
    const cat = await this.c.store.catalog();
    const file = cat.flows.find((f) => f.key === key);
    if (file === undefined) throw notFound(`no flow ${JSON.stringify(key)}`);
    return this.c.store.flow(file);
  }

  private loadedFlow(l: LoadedFlow): Flow {
    if (l.flow === undefined) throw unreadable(`${l.file.rel} does not load: ${l.error ?? ""}`);
    return l.flow;
  }

  private async flowSummaries(): Promise<FlowSummary[]> {
    const flows = await this.c.store.flows();
    const servers = this.loadServers();
    const byPath = new Map<string, string[]>();
    if (typeof servers !== "string") {
      for (const s of servers) {
        const abs = flowAbsOf(s, this.c.view);
        if (abs !== undefined) byPath.set(abs, [...(byPath.get(abs) ?? []), s.name]);
      }
    }
    const keyOf = new Map(flows.map((f) => [f.file.abs, f.file.key]));
    const items = flows.map((f) => flowSummary(f, byPath.get(f.file.abs) ?? [], stageMark(f, keyOf)));
    items.sort((a, b) => b.modified_unix_ms - a.modified_unix_ms || (a.path < b.path ? -1 : 1));
    return items;
  }

  private async flowDetail(key: string, url: URL) {
    const l = await this.flowFile(key);
    const flow = this.loadedFlow(l);
    const t = probability(url.searchParams.get("threshold"), DEFAULT_THRESHOLD);
    if (typeof t === "string") throw badRequest(t);
    const summary = (await this.flowSummaries()).find((s) => s.key === key)!;
    const warnings = await this.flowWarnings(flow, "");
    return flowDetail(summary, flow, t, warnings, this.driftCheck(key));
  }

  /** What the newest recorded tools/list of the flow's domain says against the flow. */
  private async flowWarnings(flow: Flow, sourceOverride: string): Promise<string[]> {
    const { parsed } = await this.summaries();
    const mine = parsed.filter((p) => p.log.header.domain === flow.manifest.domain).sort((a, b) => b.log.header.started_unix_ms - a.log.header.started_unix_ms);
    const warnings: string[] = [];
    for (const p of mine) {
      const { tools } = listedTools(p.log);
      if (tools.length === 0) continue;
      const source = sourceOverride || `the latest recorded tools/list (session ${p.log.header.session})`;
      warnings.push(...toolWarnings(flow, new Map(tools.map((t) => [t.name, { readOnly: t.read_only_hint, contract: t.contract }])), source));
      break;
    }
    if (flow.folds.length > 0 && !keyIsSet(this.c.env)) {
      warnings.push("the flow has an arbiter, which asks TypeSafe's Jev when served: TYPESAFE_API_KEY is not set here, so give the proxy one, or serve it with the habit or reach decider");
    }
    return warnings;
  }

  private driftCheck(key: string): DriftCheck | null {
    const job = this.c.jobs.list().find((j) => j.kind === "drift" && j.status === "succeeded" && j.params["flow"] === key);
    if (job === undefined) return null;
    const json = job.artifacts.find((a) => a.path.endsWith(".json"));
    let report: unknown;
    try {
      report = json === undefined ? undefined : JSON.parse(readFileSync(join(this.c.data, json.path), "utf8"));
    } catch {
      report = undefined;
    }
    const r = isObject(report) ? report : {};
    const sessions = Array.isArray(r["sessions"]) ? r["sessions"].length : 0;
    const alarms = Array.isArray(r["alarms"]) ? r["alarms"].filter(isObject) : [];
    const last = job.alarm ? alarms[alarms.length - 1] : undefined;
    return {
      job: job.id,
      finished_unix_ms: job.finished_unix_ms,
      alarm: job.alarm,
      sessions,
      since: last !== undefined && typeof last["change"] === "number" ? sessions - last["change"] : null,
      probability: last !== undefined && typeof last["probability"] === "number" ? last["probability"] : null,
      sites: last !== undefined && Array.isArray(last["moved"]) ? last["moved"].filter(isObject).slice(0, 3).map((m) => String(m["site"])) : [],
      unknown_tools: isObject(r["unknown_tools"]) ? Object.keys(r["unknown_tools"]) : [],
    };
  }

  private async flowDiff(url: URL) {
    const from = url.searchParams.get("from");
    const to = url.searchParams.get("to");
    if (!from || !to) throw badRequest("name the two flows to compare: from=KEY&to=KEY");
    const t = probability(url.searchParams.get("threshold"), DEFAULT_THRESHOLD);
    if (typeof t === "string") throw badRequest(t);
    const tolText = url.searchParams.get("tolerance");
    const tolerance = tolText === null || tolText === "" ? 0.05 : Number(tolText);
    if (!Number.isFinite(tolerance) || tolerance < 0) throw badRequest("tolerance: a share, 0 or more");
    const a = this.loadedFlow(await this.flowFile(from));
    const b = this.loadedFlow(await this.flowFile(to));
    return flowDiffView(from, to, a, b, t, tolerance);
  }

  private async stageView(key: string): Promise<StageView> {
    const l = await this.flowFile(key);
    const committedPath = l.file.abs.replace(/\.staged\.flow\.json$/, ".flow.json");
    const paths = stageFiles(committedPath);
    const cat = await this.c.store.catalog();
    const keyOf = (abs: string) => cat.flows.find((f) => f.abs === abs)?.key ?? null;
    const stagedFile = cat.flows.find((f) => f.abs === paths.staged);
    const staged = stagedFile === undefined ? null : flowSummary(this.c.store.flow(stagedFile), [], null);
    const shown = (p: string) => shownPath(p, this.c.data, this.c.home);
    let versions: VersionView[] = [];
    let unrecorded = false;
    let last: StageView["last"] = null;
    let report: string | null = null;
    let evidence = false;
    try {
      const h = historyOf(committedPath);
      unrecorded = h.changedByOther;
      versions = h.numbers
        .map((n) => readRecord(paths, n))
        .reverse()
        .map((r) => ({ version: r.version, kind: r.kind, unix_ms: r.unix_ms, restored: r.restored ?? null, note: r.note ?? null, changes: r.changes?.length ?? 0, evidence: r.evidence ?? null, current: r.version === h.latest && !h.changedByOther }));
      if (existsSync(paths.state) && staged !== null && staged.domain !== "") {
        const state = readState(paths.state, staged.domain);
        if (state.last !== undefined) {
          const c = state.last;
          const counts = (x: { decisions: number; lookups: number; used: number; served: number } | undefined) =>
            x === undefined ? { decisions: 0, lookups: 0, used: 0, served: 0, detours: 0, used_share: null } : { ...x, detours: x.lookups - x.used - x.served, used_share: usedShare(x) };
          last = {
            learned_unix_ms: c.learned_unix_ms,
            sessions: c.sessions,
            new: c.new,
            committed: c.committed,
            compared: c.compared,
            sites: Object.entries(c.sites).map(([site, s]) => ({ site, committed: counts(s.committed), staged: counts(s.staged) })),
            total: { committed: counts(c.total.committed), staged: counts(c.total.staged) },
            unanswered: c.unanswered,
            carried: c.carried,
          };
          evidence = staged.compiled_unix_ms === c.learned_unix_ms;
        }
      }
      const md = paths.state.replace(/\.stage\.json$/, ".stage.md");
      report = existsSync(md) ? readFileSync(md, "utf8") : null;
    } catch (e) {
      if (!(e instanceof StageError || e instanceof StageRefusal)) throw e;
      throw unreadable(e.message);
    }
    const committedLoaded = cat.flows.find((f) => f.abs === committedPath);
    let diff: StageView["diff"] = null;
    let refused: string | null = null;
    if (stagedFile === undefined) refused = `there is no staged flow at ${shown(paths.staged)}: stretto stage learns it`;
    else if (committedLoaded !== undefined) {
      const a = this.c.store.flow(committedLoaded).flow;
      const b = this.c.store.flow(stagedFile).flow;
      if (a !== undefined && b !== undefined) {
        diff = flowDiffView(committedLoaded.key, stagedFile.key, a, b, DEFAULT_THRESHOLD, 0.05);
        if (readFileSync(committedPath, "utf8") === readFileSync(paths.staged, "utf8")) refused = "the staged flow is the committed one: nothing to commit";
      }
    }
    return { committed: keyOf(committedPath), committed_path: shown(committedPath), staged, staged_path: shown(paths.staged), last, report_markdown: report, evidence, refused, diff, versions, unrecorded };
  }

  private async commit(req: IncomingMessage, key: string, rollback: boolean): Promise<VersionView> {
    const body = await readJson(req, "the request is not as expected");
    if (body !== undefined && !isObject(body)) throw badRequest("the request is not as expected: a JSON object");
    const b = body ?? {};
    const note = typeof b["note"] === "string" && b["note"].trim() !== "" ? b["note"].trim() : undefined;
    const to = b["to"];
    if (to !== undefined && to !== null && !(typeof to === "number" && Number.isInteger(to) && to >= 1)) throw badRequest("the request is not as expected: to is a version number");
    const l = await this.flowFile(key);
    const committed = l.file.abs.replace(/\.staged\.flow\.json$/, ".flow.json");
    try {
      const r = rollback ? flowRollback(committed, typeof to === "number" ? to : undefined, note, Date.now()) : flowCommit(committed, note, Date.now());
      return { version: r.version, kind: r.kind, unix_ms: r.unix_ms, restored: r.restored ?? null, note: r.note ?? null, changes: r.changes?.length ?? 0, evidence: r.evidence ?? null, current: true };
    } catch (e) {
      if (e instanceof StageRefusal) throw conflict(e.message);
      if (e instanceof StageError) throw unreadable(e.message);
      throw e;
    }
  }

  // ---------- servers ----------

  private serverView(s: ServerEntry, summaries: SessionSummary[], flows: FlowSummary[]): ServerView {
    const mine = summaries.filter((x) => x.domain === s.name);
    const abs = flowAbsOf(s, this.c.view);
    const rel = abs === undefined ? undefined : shownPath(abs, this.c.data, this.c.home);
    return {
      ...s,
      proxy_args: proxyArgs(s, this.c.view),
      sessions: mine.length,
      last_session_unix_ms: mine[0]?.started_unix_ms ?? null,
      flow_summary: flows.find((f) => f.path === rel) ?? null,
      issues: serverIssues(s, this.c.view),
    };
  }

  private async serverList() {
    const servers = this.c.registry.load();
    const { summaries } = await this.summaries();
    const flows = await this.flowSummaries();
    const items = [];
    for (const s of servers) items.push(this.serverView(s, summaries, flows));
    const found = new Map<string, { domain: string; upstream: NonNullable<SessionSummary["upstream"]>; sessions: number; last_seen_unix_ms: number | null; registered: boolean }>();
    for (const x of summaries) {
      if (x.domain === null || x.upstream === null) continue;
      const k = JSON.stringify([x.domain, x.upstream]);
      const d = found.get(k) ?? { domain: x.domain, upstream: x.upstream, sessions: 0, last_seen_unix_ms: null, registered: servers.some((s) => s.name === x.domain) };
      d.sessions++;
      if (x.started_unix_ms !== null && (d.last_seen_unix_ms === null || x.started_unix_ms > d.last_seen_unix_ms)) d.last_seen_unix_ms = x.started_unix_ms;
      found.set(k, d);
    }
    const discovered = [...found.values()].sort((a, b) => (b.last_seen_unix_ms ?? 0) - (a.last_seen_unix_ms ?? 0));
    return { items, discovered };
  }

  private async serverCreate(req: IncomingMessage): Promise<ServerView> {
    const body = await readJson(req, "the server is not as expected");
    const now = Date.now();
    const entry = this.c.registry.input(body, now, now);
    await this.c.registry.change((servers) => {
      if (servers.some((s) => s.name === entry.name)) throw conflict(`a server named ${JSON.stringify(entry.name)} is registered already`);
      return { servers: [...servers, entry], result: undefined };
    });
    return this.serverView(entry, (await this.summaries()).summaries, await this.flowSummaries());
  }

  private async serverUpdate(req: IncomingMessage, name: string): Promise<ServerView> {
    const body = await readJson(req, "the server is not as expected");
    const now = Date.now();
    const entry = await this.c.registry.change((servers) => {
      const old = servers.find((s) => s.name === name);
      if (old === undefined) throw notFound(`no server ${JSON.stringify(name)}`);
      const e = this.c.registry.input(body, old.created_unix_ms, now);
      if (e.name !== name && servers.some((s) => s.name === e.name)) throw conflict(`a server named ${JSON.stringify(e.name)} is registered already`);
      return { servers: servers.map((s) => (s.name === name ? e : s)), result: e };
    });
    return this.serverView(entry, (await this.summaries()).summaries, await this.flowSummaries());
  }

  private server(name: string): ServerEntry {
    const s = this.c.registry.load().find((x) => x.name === name);
    if (s === undefined) throw notFound(`no server ${JSON.stringify(name)}`);
    return s;
  }

  private serverConfig(name: string, url: URL) {
    const host = url.searchParams.get("host") || "claude-code";
    if (!(HOSTS as readonly string[]).includes(host)) throw badRequest(`host ${JSON.stringify(host)}: expected claude-code, claude-desktop, cursor or vscode`);
    return hostConfig(this.server(name), host as HostName, this.c.view);
  }

  private async serverProbe(name: string) {
    const s = this.server(name);
    const result = await probe(s, this.c.env);
    const abs = flowAbsOf(s, this.c.view);
    if (result.ok && abs !== undefined) {
      const l = (await this.c.store.flows()).find((f) => f.file.abs === abs);
      if (l?.flow !== undefined) {
        result.flow_warnings = toolWarnings(l.flow, new Map(result.tools.map((t) => [t.name, { readOnly: t.read_only_hint, contract: t.contract }])), "the server");
      }
    }
    return result;
  }

  // ---------- jobs ----------

  private async jobSubmit(req: IncomingMessage): Promise<Job> {
    const body = await readJson(req, "the job is not as expected");
    const now = Date.now();
    const id = jobId(now);
    const cat = await this.c.store.catalog();
    const plan = planJob(body, {
      data: this.c.data,
      home: this.c.home,
      jobsDir: this.c.jobs.dir,
      id,
      env: this.c.env,
      flowPath: (key) => cat.flows.find((f) => f.key === key)?.abs,
    });
    return this.c.jobs.submit(id, plan, now);
  }

  private job(id: string): Job {
    const j = this.c.jobs.view(id, true);
    if (j === undefined) throw notFound(`no job ${JSON.stringify(id)}`);
    return j;
  }

  private artifact(res: ServerResponse, id: string, index: number): void {
    const j = this.job(id);
    const a = j.artifacts[index];
    if (a === undefined) throw notFound(`job ${id} has no artifact ${index}`);
    let abs: string;
    try {
      abs = requestPath(a.path, this.c.data, this.c.home);
    } catch (e) {
      if (e instanceof PathError) throw new ApiFailure(403, e.message);
      throw e;
    }
    let st;
    try {
      st = statSync(abs);
    } catch (e) {
      throw notFound(`${a.path}: ${errorText(e)}`);
    }
    if (st.isDirectory()) throw badRequest(`${a.path} is a directory`);
    res.setHeader("Content-Type", abs.endsWith(".json") ? "application/json" : abs.endsWith(".md") ? "text/markdown; charset=utf-8" : "text/plain; charset=utf-8");
    createReadStream(abs).pipe(res);
  }

  // ---------- events ----------

  private events(req: IncomingMessage, res: ServerResponse): Promise<void> {
    openStream(res);
    const stop = this.c.watcher.listen();
    const sub = merge(this.c.watcher.changed, this.c.jobs.changes).subscribe((ev) => {
      if ("what" in ev) res.write(`event: changed\ndata: ${JSON.stringify(ev)}\n\n`);
      else res.write(`event: job\ndata: ${JSON.stringify(ev)}\n\n`);
    });
    sub.add(stop);
    this.hold(req, res, sub);
    return Promise.resolve();
  }

  /** Keeps a stream open (a ping every 15 s) until the client goes or the console stops. */
  private hold(req: IncomingMessage, res: ServerResponse, sub: Subscription): void {
    const ping = setInterval(() => res.write(": ping\n\n"), 15_000);
    const close = () => {
      clearInterval(ping);
      sub.unsubscribe();
      if (!res.writableEnded) res.end();
    };
    req.on("close", close);
    res.on("close", close);
    void this.c.stopping.then(close);
  }
}

function openStream(res: ServerResponse): void {
  res.statusCode = 200;
  res.setHeader("Content-Type", "text/event-stream");
  res.setHeader("Connection", "keep-alive");
  res.flushHeaders();
  res.write(": open\n\n");
}

/** The tools the agent called in a session. */
function calledTools(p: ParsedSession): string[] {
  const tools = new Set<string>();
  for (const e of p.log.entries) {
    if (e.from !== "client") continue;
    const ms = Array.isArray(e.message) ? e.message : [e.message];
    for (const m of ms) if (isObject(m) && m["method"] === "tools/call" && isObject(m["params"])) tools.add(textOf(m["params"]["name"]));
  }
  return [...tools];
}

/** Where a flow's staged and committed files are, whichever of the two `abs` is. */
function stageFiles(committed: string) {
  try {
    return stagePaths(committed);
  } catch (e) {
    if (e instanceof StageRefusal) throw badRequest(e.message);
    throw e;
  }
}

function stageMark(f: LoadedFlow, keyOf: Map<string, string>): FlowSummary["stage"] {
  const abs = f.file.abs;
  const isStaged = abs.endsWith(".staged.flow.json");
  const other = isStaged ? abs.replace(/\.staged\.flow\.json$/, ".flow.json") : abs.replace(/\.flow\.json$/, ".staged.flow.json");
  if (!isStaged && !existsSync(other)) return null;
  let pending = false;
  try {
    const committed = isStaged ? other : abs;
    const staged = isStaged ? abs : other;
    pending = existsSync(staged) && (!existsSync(committed) || readFileSync(staged, "utf8") !== readFileSync(committed, "utf8"));
  } catch {
    pending = false;
  }
  return { staged: isStaged, other: keyOf.get(other) ?? null, pending };
}

/** What a list of tools (from a recording or a probe) says against the flow. */
function toolWarnings(flow: Flow, listed: Map<string, { readOnly: boolean | null; contract: string }>, source: string): string[] {
  const out: string[] = [];
  for (const [tool, kind] of flow.manifest.tools) {
    const l = listed.get(tool);
    if (kind === "read" && l !== undefined && l.readOnly === false) out.push(`\`${tool}\` is read-only in the flow, but ${source} marks it readOnlyHint: false, so the proxy will not look it up`);
  }
  for (const tool of [...flow.contracts.keys()]) {
    const l = listed.get(tool);
    const pinned = flow.contracts.get(tool)!;
    if (l !== undefined && l.contract !== "" && pinned !== l.contract) out.push(`\`${tool}\`'s input changed since the flow was learned (${pinned} → ${l.contract} in ${source}), so the proxy no longer looks it up`);
  }
  if (listed.size > 0) {
    for (const tool of lookupTools(flow, DEFAULT_THRESHOLD)) if (!listed.has(tool)) out.push(`the flow looks up \`${tool}\`, which ${source} does not list`);
  }
  return out;
}
