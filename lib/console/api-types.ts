/**
 * The console's HTTP API, as types: every JSON answer and request body under /api, and the
 * events of GET /api/events. The server (lib/console) builds these values and the UI
 * (console/) imports this file type-only (`import type { … } from ".../api-types.js"`), so
 * both sides read one definition. Fields are snake_case, times `*_unix_ms` (ms since the
 * epoch), sizes in bytes, probabilities 0–1. docs/console-api.md describes each endpoint.
 */

/** Every error: `{ error }` with the status (400, 401, 403, 404, 405, 409, 422, 500). */
export interface ApiError {
  error: string;
}

/** `{ ok: true }`: DELETEs, POST /api/logout. */
export interface Ok {
  ok: true;
}

// ---------- health, meta, settings, overview ----------

/** GET /api/health (needs no token). */
export interface Health {
  ok: boolean;
  version: string;
}

/** A companion binary the console found: `version` is its `--version` line, or null. */
export interface BinaryInfo {
  path: string;
  version: string | null;
}

/** GET /api/meta */
export interface Meta {
  version: string;
  data_dir: string;
  read_only: boolean;
  /** A token is required (false under --no-auth). */
  auth: boolean;
  /** TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE is set (never its value). */
  key_set: boolean;
  stretto: BinaryInfo | null;
  proxy: BinaryInfo | null;
}

export interface DiskUse {
  logs_bytes: number;
  flows_bytes: number;
  cache_bytes: number;
  other_bytes: number;
  total_bytes: number;
}

export interface NamedBinary {
  name: "stretto" | "stretto-proxy" | "stretto-procedure" | "stretto-mcp-demo";
  path: string | null;
  version: string | null;
}

/** GET /api/settings */
export interface Settings {
  data_dir: string;
  disk: DiskUse;
  sessions: number;
  flows: number;
  key_set: boolean;
  retention_note: string;
  binaries: NamedBinary[];
  version: string;
  read_only: boolean;
  auth: boolean;
}

export interface OverviewTotals {
  sessions: number;
  sessions_7d: number;
  domains: number;
  flows: number;
  servers: number;
  tool_calls: number;
  flow_lookups: number;
  hand_backs: number;
  shadow_decisions: number;
  errors: number;
}

export interface DomainModes {
  recorded: number;
  shadow: number;
  served: number;
}

export interface DomainCard {
  name: string;
  sessions: number;
  last_session_unix_ms: number | null;
  modes: DomainModes;
  /** Keys of loadable flows of this domain. */
  flows: string[];
  /** Registry names equal to this domain. */
  servers: string[];
}

export interface ActivityDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  sessions: number;
  tool_calls: number;
  flow_lookups: number;
}

export type HealthLevel = "ok" | "note" | "warn" | "error";

export interface HealthItem {
  level: HealthLevel;
  message: string;
}

/** GET /api/overview */
export interface Overview {
  totals: OverviewTotals;
  domains: DomainCard[];
  /** The last 14 UTC days, oldest first. */
  activity: ActivityDay[];
  /** The 8 newest sessions. */
  recent_sessions: SessionSummary[];
  /** The 5 newest jobs. */
  jobs: Job[];
  health: HealthItem[];
}

// ---------- sessions ----------

export type SessionMode = "recorded" | "shadow" | "served";

export type SessionUpstream = { kind: "stdio"; command: string[] } | { kind: "http"; url: string };

/** One readable session log. */
export interface SessionSummary {
  key: string;
  /** Relative to the data dir, '/'-separated. */
  path: string;
  session_id: string;
  domain: string | null;
  agent: string | null;
  started_unix_ms: number | null;
  duration_ms: number;
  mode: SessionMode;
  tool_calls: number;
  llm_turns: number;
  errors: number;
  flow_lookups: number;
  hand_backs: number;
  shadow_lookups: number;
  /** The flow handed back because its surprise gate tripped. */
  surprised: boolean;
  writes: number;
  upstream: SessionUpstream | null;
  size_bytes: number;
  has_flow_log: boolean;
  has_confirm_log: boolean;
  /**
   * Beyond the original: the session is being recorded now (the proxy whose process id ends
   * its session id is running, and the log grew within the last 10 minutes). Its page can
   * follow it live (GET /api/sessions/{key}/follow).
   */
  live: boolean;
}

/** GET /api/sessions?domain=&mode=&q=&limit=50&offset=0 */
export interface SessionList {
  total: number;
  items: SessionSummary[];
}

export type ToolKind = "read" | "write" | "generic";

export interface ToolInfo {
  name: string;
  kind: ToolKind;
  description: string | null;
  read_only_hint: boolean | null;
  destructive_hint: boolean | null;
  /** e.g. `order_id:string!, reason:string!` */
  contract: string;
}

export interface TurnView {
  index: number;
  start_ms: number;
  end_ms: number;
  /** Ids of the calls (CallView.id) in this turn; none = an assistant --context message. */
  calls: string[];
}

export interface CallView {
  /** String ids as they are, others as JSON text. */
  id: string;
  by: "agent" | "flow";
  tool: string;
  kind: ToolKind;
  arguments: unknown;
  t_ms: number;
  result_t_ms: number | null;
  latency_ms: number | null;
  /** null: no answer. */
  ok: boolean | null;
  result_text: string | null;
  result_json: unknown;
  result_truncated: boolean;
  turn: number | null;
  /** A flow lookup: the agent's call it followed; an agent call inside stretto_commit: the commit's id. */
  after: string | null;
  /** The flow decision (index into SessionDetail.decisions) that made this lookup. */
  decision: number | null;
}

export interface ContextMessage {
  t_ms: number;
  role: "user" | "assistant";
  content: string;
}

export interface FlowDecision {
  after: string | null;
  /** e.g. `decide#0` */
  address: string | null;
  /** The tool just called; ` (error)` appended when it failed. */
  site: string | null;
  action: "lookup" | "hand_back";
  tool: string | null;
  arguments: unknown;
  prob: number | null;
  probs: Record<string, number> | null;
  binding: number | null;
  reason: string | null;
  shadow: boolean;
  ms: number | null;
}

export interface FlowRun {
  after: string | null;
  call: string | null;
  failed: boolean;
  max_lookups: number | null;
  /** [address, value, logp] */
  sites: [string, string, number][];
  surprise: number | null;
}

export type TimelineFrom = "client" | "server" | "proxy" | "context";
export type TimelineKind = "request" | "response" | "notification" | "error" | "context" | "raw";

export interface TimelineEvent {
  t_ms: number;
  from: TimelineFrom;
  kind: TimelineKind;
  /** For a response: the method of the request it answers. */
  method: string | null;
  id: string | null;
  summary: string;
}

/** GET /api/sessions/{key} */
export interface SessionDetail {
  summary: SessionSummary;
  /** The log's first line as JSON. */
  header: unknown;
  tools: ToolInfo[];
  turns: TurnView[];
  calls: CallView[];
  context: ContextMessage[];
  decisions: FlowDecision[];
  runs: FlowRun[];
  /** The confirm log's lines, as JSON. */
  confirmations: unknown[];
  events: TimelineEvent[];
  truncated: boolean;
}

// ---------- flows ----------

export type Decider = "arbiter" | "habit" | "reach";

export interface ToolCounts {
  read: number;
  write: number;
  generic: number;
}

export interface FlowStageMark {
  /** This file is the staged one. */
  staged: boolean;
  /** The key of the other file of the pair (committed ↔ staged), if it is in the data dir. */
  other: string | null;
  /** A staged flow waits to be committed. */
  pending: boolean;
}

export interface FlowSummary {
  key: string;
  path: string;
  name: string;
  domain: string;
  format_version: number;
  stretto_version: string;
  sources: string[];
  habit_episodes: number;
  arbiter_cases: number;
  compiled_unix_ms: number | null;
  modified_unix_ms: number;
  size_bytes: number;
  decider: Decider;
  has_arbiter: boolean;
  has_reach: boolean;
  tools: ToolCounts;
  sites: number;
  /** Distinct lookup tools at threshold 0.3 over all sites. */
  lookups: number;
  lookup_tools: string[];
  promoted: { sites_promoted: number; sites_scored: number } | null;
  surprise: { window: number; threshold: number; quantile?: number } | null;
  /** Registry servers whose flow is this file. */
  served_by: string[];
  stage: FlowStageMark | null;
  /** The load error; the other fields are then empty. */
  error: string | null;
}

/** GET /api/flows */
export interface FlowList {
  items: FlowSummary[];
}

/**
 * The review library's view of a flow at a threshold: the same structures `stretto flow-show
 * --json` prints (lib/review/flow-view.ts), passed through as they are.
 */
export interface FlowToolView {
  name: string;
  kind: ToolKind;
  [field: string]: unknown;
}

export interface FlowSiteView {
  [field: string]: unknown;
}

export interface DriftCheck {
  job: string;
  finished_unix_ms: number | null;
  alarm: boolean;
  sessions: number;
  since: number | null;
  probability: number | null;
  sites: string[];
  unknown_tools: string[];
}

/** GET /api/flows/{key}?threshold=0.3 */
export interface FlowDetail {
  summary: FlowSummary;
  threshold: number;
  tools: FlowToolView[];
  sites: FlowSiteView[];
  bindings: unknown[];
  provenance: unknown;
  promotion: unknown;
  /** `stretto flow-show`'s text; starts `# Flow: {name}`. */
  review_markdown: string;
  warnings: string[];
  drift: DriftCheck | null;
}

export interface FlowChange {
  section: string;
  text: string;
  review: boolean;
  [field: string]: unknown;
}

/** GET /api/flows/diff?from=KEY&to=KEY&threshold=0.3&tolerance=0.05 */
export interface FlowDiffView {
  from: string;
  to: string;
  /** Changes that need review. */
  review: number;
  changes: number;
  sections: { title: string; changes: FlowChange[] }[];
  /** Starts `# Flow diff: …`. */
  markdown: string;
}

export interface StageCounts {
  decisions: number;
  lookups: number;
  used: number;
  served: number;
  detours: number;
  used_share: { share: number; lower: number; upper: number } | null;
}

export interface ComparisonView {
  learned_unix_ms: number | null;
  sessions: number;
  new: number;
  /** Whether a committed flow was scored beside the staged one. */
  committed: boolean;
  compared: number;
  sites: { site: string; committed: StageCounts; staged: StageCounts }[];
  total: { committed: StageCounts; staged: StageCounts };
  unanswered: [number, number];
  /** What the staged flow keeps from the committed one (`its arbiter`, …), as `stretto stage` says it. */
  carried: string[];
}

export interface VersionView {
  version: number;
  kind: string;
  unix_ms: number;
  restored: number | null;
  note: string | null;
  changes: number;
  evidence: unknown;
  current: boolean;
}

/** GET /api/flows/{key}/stage */
export interface StageView {
  committed: string | null;
  committed_path: string;
  staged: FlowSummary | null;
  staged_path: string;
  last: ComparisonView | null;
  report_markdown: string | null;
  /** The last comparison is of the current staged flow. */
  evidence: boolean;
  /** Why a commit would be refused, or null. */
  refused: string | null;
  diff: FlowDiffView | null;
  /** Latest first. */
  versions: VersionView[];
  /** The committed file differs from the latest version. */
  unrecorded: boolean;
}

/** POST /api/flows/{key}/commit */
export interface CommitRequest {
  note?: string | null;
}

/** POST /api/flows/{key}/rollback */
export interface RollbackRequest {
  to?: number;
  note?: string | null;
}

// ---------- servers ----------

export type ServerUpstream =
  | { kind: "stdio"; command: string[]; env: string[] }
  | { kind: "http"; url: string; headers: { name: string; env: string }[] };

export type ServerMode = "record" | "shadow" | "serve";

export type SurpriseSetting = { kind: "off" } | { kind: "threshold"; nats: number };

export interface JudgeSetting {
  mode: "log" | "enforce";
  context: string;
}

export interface ListenSetting {
  addr: string;
  token_file: string | null;
}

/** POST /api/servers, PUT /api/servers/{name}: everything but name, upstream and mode is optional. */
export interface ServerInput {
  name: string;
  description?: string | null;
  upstream: ServerUpstream;
  mode: ServerMode;
  flow?: string | null;
  record_dir?: string | null;
  decider?: Decider | null;
  threshold?: number | null;
  surprise?: SurpriseSetting | null;
  flow_tools?: string[];
  guards?: boolean;
  judge?: JudgeSetting | null;
  commit?: boolean;
  retain_days?: number | null;
  listen?: ListenSetting | null;
}

/** One entry of servers.json. */
export interface ServerEntry {
  name: string;
  description: string | null;
  upstream: ServerUpstream;
  mode: ServerMode;
  flow: string | null;
  record_dir: string | null;
  decider: Decider | null;
  threshold: number | null;
  surprise: SurpriseSetting | null;
  flow_tools: string[];
  guards: boolean;
  judge: JudgeSetting | null;
  commit: boolean;
  retain_days: number | null;
  listen: ListenSetting | null;
  created_unix_ms: number;
  updated_unix_ms: number;
}

export interface ServerView extends ServerEntry {
  /** The stretto-proxy arguments `stretto init` writes (program omitted). */
  proxy_args: string[];
  sessions: number;
  last_session_unix_ms: number | null;
  flow_summary: FlowSummary | null;
  issues: string[];
}

export interface DiscoveredUpstream {
  domain: string;
  upstream: SessionUpstream;
  sessions: number;
  last_seen_unix_ms: number | null;
  registered: boolean;
}

/** GET /api/servers */
export interface ServerList {
  items: ServerView[];
  discovered: DiscoveredUpstream[];
}

export type HostName = "claude-code" | "claude-desktop" | "cursor" | "vscode";

/** GET /api/servers/{name}/config?host= — `stretto init`'s output. */
export interface HostConfig {
  host: HostName;
  language: "shell" | "json";
  snippet: string;
  placement: string;
  next_steps: string;
}

/** POST /api/servers/{name}/probe */
export interface ProbeResult {
  ok: boolean;
  ms: number;
  error: string | null;
  server_name: string | null;
  server_version: string | null;
  protocol_version: string | null;
  instructions: string | null;
  tools: ToolInfo[];
  flow_warnings: string[];
}

// ---------- jobs ----------

export type JobKind = "learn" | "promote" | "audit" | "stage" | "drift" | "redact" | "doctor";
export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

export interface JobArtifact {
  kind: "flow" | "report" | "dir";
  path: string;
  /** A flow in the data dir: its key. */
  key: string | null;
}

export interface Job {
  /** `YYYYMMDDTHHMMSS.mmmZ-xxxx` */
  id: string;
  kind: JobKind;
  title: string;
  /** The request with its defaults filled in. */
  params: Record<string, unknown>;
  status: JobStatus;
  created_unix_ms: number;
  started_unix_ms: number | null;
  finished_unix_ms: number | null;
  /** A signal n gives 128+n; null if it never ran. */
  exit_code: number | null;
  /** A drift job that found a change. */
  alarm: boolean;
  /** In lists and events the last 64 KiB, starting at a line; GET /api/jobs/{id} the whole. */
  output: string;
  artifacts: JobArtifact[];
}

/** GET /api/jobs */
export interface JobList {
  items: Job[];
}

export type JobRequest =
  | {
      kind: "learn";
      domain: string;
      sessions: string;
      out?: string;
      overwrite?: boolean;
      habit_only?: boolean;
      constants?: boolean;
    }
  | {
      kind: "promote";
      flow: string;
      sessions: string;
      oracle_cache?: string;
      threshold?: number;
      min_used?: number;
      min_lower?: number;
      min_tasks?: number;
      out?: string;
      overwrite?: boolean;
    }
  | { kind: "audit"; flow: string; sessions: string; decider?: Decider }
  | {
      kind: "drift";
      flow: string;
      sessions: string;
      decider?: Decider;
      window?: number;
      threshold?: number;
    }
  | {
      kind: "stage";
      flow: string;
      sessions: string;
      window?: number;
      decider?: Decider;
      half_life?: number;
      constants?: boolean;
    }
  | { kind: "redact"; sessions: string; out: string; keep_shared?: number; hash_fields?: string }
  | { kind: "doctor" };

// ---------- live sessions (beyond the original) ----------

/**
 * GET /api/sessions/{key}/follow — an event stream of the session's log as it is written.
 * `line` events carry each new line (the JSON as text, as the proxy wrote it), from the given
 * byte offset (`?from=N`, default: the log's end when the stream opens, so a page that just
 * read SessionDetail sees only what comes after).
 */
export interface FollowLine {
  /** Byte offset of the line's start in the log. */
  offset: number;
  /** The line without its newline. */
  line: string;
}

/** `event: end` on the follow stream: the log was closed (its end entry) or removed. */
export interface FollowEnd {
  reason: "ended" | "removed";
}

// ---------- events (GET /api/events) ----------

export type ChangedWhat = "sessions" | "flows" | "jobs" | "servers";

/** `event: changed` — keys of the items added, changed or removed, sorted. */
export interface ChangedEvent {
  what: ChangedWhat;
  keys: string[];
}

/** `event: job` — the job after a status change, or while its output flows (64 KiB tail). */
export type JobEvent = Job;

/** The events of GET /api/events, by their SSE event name. */
export interface ConsoleEvents {
  changed: ChangedEvent;
  job: JobEvent;
}

/** The events of GET /api/sessions/{key}/follow, by their SSE event name. */
export interface FollowEvents {
  line: FollowLine;
  end: FollowEnd;
}
