/**
 * The overview page's numbers and its health list, from the same readings the other
 * endpoints use: the sessions' summaries, the flows, the registry, the jobs, and the checks
 * `stretto doctor` makes of the data directory and the key.
 */
import type { ActivityDay, DomainCard, HealthItem, Job, Overview, ServerEntry, SessionSummary } from "./api-types.js";
import { checkDataDir } from "../doctor/data-dir.js";
import { checkKey } from "../doctor/key.js";
import type { LoadedFlow } from "./flow-views.js";

const DAY = 86_400_000;

export interface OverviewInput {
  data: string;
  readOnly: boolean;
  version: string;
  env: NodeJS.ProcessEnv;
  summaries: SessionSummary[];
  unreadable: { rel: string; error: string }[];
  flows: LoadedFlow[];
  servers: ServerEntry[] | string;
  serverIssues: Map<string, string[]>;
  jobs: Job[];
  binaries: { name: string; path: string | null; version: string | null }[];
  now: number;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function sum(s: SessionSummary[], f: (x: SessionSummary) => number): number {
  return s.reduce((n, x) => n + f(x), 0);
}

export function overview(i: OverviewInput): Overview {
  const s = i.summaries;
  const servers = typeof i.servers === "string" ? [] : i.servers;
  const names = new Set<string>();
  for (const x of s) if (x.domain) names.add(x.domain);
  for (const f of i.flows) if (f.flow) names.add(f.flow.manifest.domain);
  for (const x of servers) names.add(x.name);
  const domains: DomainCard[] = [...names].sort().map((name) => {
    const mine = s.filter((x) => x.domain === name);
    return {
      name,
      sessions: mine.length,
      last_session_unix_ms: mine.reduce<number | null>((m, x) => (x.started_unix_ms !== null && (m === null || x.started_unix_ms > m) ? x.started_unix_ms : m), null),
      modes: { recorded: mine.filter((x) => x.mode === "recorded").length, shadow: mine.filter((x) => x.mode === "shadow").length, served: mine.filter((x) => x.mode === "served").length },
      flows: i.flows.filter((f) => f.flow?.manifest.domain === name).map((f) => f.file.key).sort(),
      servers: servers.filter((x) => x.name === name).map((x) => x.name),
    };
  });
  const today = Math.floor(i.now / DAY) * DAY;
  const activity: ActivityDay[] = [];
  for (let k = 13; k >= 0; k--) {
    const start = today - k * DAY;
    if (start < 0) continue;
    const mine = s.filter((x) => x.started_unix_ms !== null && x.started_unix_ms >= start && x.started_unix_ms < start + DAY);
    activity.push({ day: day(start), sessions: mine.length, tool_calls: sum(mine, (x) => x.tool_calls), flow_lookups: sum(mine, (x) => x.flow_lookups) });
  }
  const health: HealthItem[] = [];
  if (i.readOnly) health.push({ level: "note", message: `read-only: the console changes nothing in ${i.data}` });
  else {
    const d = checkDataDir(i.data);
    health.push({ level: d.level === "problem" ? "error" : d.level, message: d.text });
  }
  for (const b of i.binaries.filter((b) => b.name === "stretto" || b.name === "stretto-proxy")) {
    if (b.path === null) {
      const what = b.name === "stretto" ? "jobs cannot run" : "MCP hosts run it to record sessions and serve flows";
      health.push({ level: "warn", message: `${b.name} is not beside the console or on PATH: ${what} (docs/install.md)` });
    } else if (b.version === null) health.push({ level: "warn", message: `${b.name} (${b.path}) does not answer --version` });
    else if (b.version === `${b.name} ${i.version}`) health.push({ level: "ok", message: `${b.version} (${b.path})` });
    else health.push({ level: "warn", message: `${b.version} (${b.path}) is not stretto ${i.version}'s, as the console is: install them together` });
  }
  const key = checkKey(i.env);
  health.push({ level: key.level === "problem" ? "warn" : key.level, message: key.text });
  if (typeof i.servers === "string") health.push({ level: "error", message: i.servers });
  for (const f of i.flows) if (f.error !== undefined) health.push({ level: "error", message: `${f.file.rel}: this stretto cannot read it (${f.error})` });
  for (const u of i.unreadable.slice(0, 5)) health.push({ level: "warn", message: `${u.rel} is not a session log this stretto can read: ${u.error}` });
  for (const [name, issues] of i.serverIssues) for (const issue of issues) health.push({ level: "warn", message: `server ${name}: ${issue}` });
  return {
    totals: {
      sessions: s.length,
      sessions_7d: s.filter((x) => x.started_unix_ms !== null && x.started_unix_ms >= i.now - 7 * DAY).length,
      domains: domains.length,
      flows: i.flows.length,
      servers: servers.length,
      tool_calls: sum(s, (x) => x.tool_calls),
      flow_lookups: sum(s, (x) => x.flow_lookups),
      hand_backs: sum(s, (x) => x.hand_backs),
      shadow_decisions: sum(s, (x) => x.shadow_lookups),
      errors: sum(s, (x) => x.errors),
    },
    domains,
    activity,
    recent_sessions: s.slice(0, 8),
    jobs: i.jobs.slice(0, 5),
    health,
  };
}
