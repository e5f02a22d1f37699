/**
 * What each kind of job runs: the request checked (paths inside the data directory, numbers
 * in range), its defaults filled in, and the `stretto` arguments, the files it will write and
 * its title. The arguments are the CLI's own, so a job does what the command line does.
 */
import { existsSync, mkdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { JobArtifact, JobKind } from "./api-types.js";
import { domainProblem } from "../init/index.js";
import { loadFlow } from "../flow/ir/index.js";
import { isObject } from "../util/is-object.js";
import { errorText } from "../util/error-text.js";
import { PathError, inside, requestPath, shownPath } from "./data-paths.js";
import { ApiFailure, badRequest, conflict } from "./http-kit.js";

export const JOB_KINDS: readonly JobKind[] = ["learn", "promote", "audit", "stage", "drift", "redact", "doctor"];

export interface PlanContext {
  data: string;
  home: string | undefined;
  jobsDir: string;
  id: string;
  env: NodeJS.ProcessEnv;
  /** The flow file of a key, or undefined. */
  flowPath(key: string): string | undefined;
}

export interface Plan {
  kind: JobKind;
  title: string;
  params: Record<string, unknown>;
  args: string[];
  artifacts: { kind: JobArtifact["kind"]; abs: string }[];
}

type Body = Record<string, unknown>;

function path(ctx: PlanContext, what: string, v: unknown): string {
  if (typeof v !== "string") throw badRequest(`${what}: name a path`);
  try {
    return requestPath(v, ctx.data, ctx.home);
  } catch (e) {
    if (e instanceof PathError) throw new ApiFailure(e.message.includes("outside") || e.message.includes("climbs") || e.message.includes("symbolic") ? 403 : 400, `${what}: ${e.message}`);
    throw e;
  }
}

function dir(ctx: PlanContext, what: string, v: unknown): string {
  const p = path(ctx, what, v);
  if (!existsSync(p) || !statSync(p).isDirectory()) throw badRequest(`${what}: ${String(v)} is not a directory`);
  return p;
}

function output(ctx: PlanContext, abs: string, overwrite: boolean): string {
  if (existsSync(abs) && !overwrite) throw conflict(`${shownPath(abs, ctx.data, ctx.home)} exists: choose another path, or overwrite it`);
  mkdirSync(dirname(abs), { recursive: true });
  return abs;
}

function num(b: Body, name: string, fallback: number): number {
  const v = b[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== "number" || !Number.isFinite(v)) throw badRequest(`${name}: a number`);
  return v;
}

function prob(b: Body, name: string, fallback: number): number {
  const x = num(b, name, fallback);
  if (x < 0 || x > 1) throw badRequest(`${name} ${x}: from 0 to 1`);
  return x;
}

const bool = (b: Body, name: string, fallback: boolean) => (typeof b[name] === "boolean" ? (b[name]) : fallback);

function flowOf(ctx: PlanContext, b: Body): { key: string; abs: string; name: string } {
  const key = b["flow"];
  if (typeof key !== "string") throw badRequest("flow: name a flow by its key");
  const abs = ctx.flowPath(key);
  if (abs === undefined) throw badRequest(`no flow ${JSON.stringify(key)}`);
  return { key, abs, name: basename(abs).replace(/\.flow\.json$/, "") };
}

function decider(b: Body): string[] {
  const d = b["decider"];
  if (d === undefined || d === null) return [];
  if (d !== "habit" && d !== "reach" && d !== "arbiter") throw badRequest(`decider ${JSON.stringify(d)}: habit, reach or arbiter`);
  return ["--decider", d];
}

export function planJob(body: unknown, ctx: PlanContext): Plan {
  if (!isObject(body) || typeof body["kind"] !== "string") throw badRequest("the job is not as expected: a JSON object with a kind");
  const b = body;
  const kind = b["kind"] as JobKind;
  const shown = (p: string) => shownPath(p, ctx.data, ctx.home);
  const cache = join(ctx.data, "oracle-cache");
  const report = (ext: string) => join(ctx.jobsDir, `${ctx.id}.${kind}.${ext}`);
  switch (kind) {
    case "learn": {
      const domain = b["domain"];
      if (typeof domain !== "string") throw badRequest("domain: name the domain");
      const problem = domainProblem(domain);
      if (problem !== undefined) throw badRequest(problem);
      const sessions = dir(ctx, "sessions", b["sessions"]);
      const overwrite = bool(b, "overwrite", false);
      const out = output(ctx, b["out"] === undefined ? join(ctx.data, `${domain}.flow.json`) : path(ctx, "out", b["out"]), overwrite);
      const habitOnly = bool(b, "habit_only", true);
      const constants = bool(b, "constants", false);
      if (!habitOnly && !ctx.env["TYPESAFE_API_KEY"] && !ctx.env["TYPESAFE_API_KEY_FILE"]) {
        throw badRequest("fitting an arbiter asks TypeSafe's Jev, and neither TYPESAFE_API_KEY nor TYPESAFE_API_KEY_FILE is set in the console's environment: learn with habit_only");
      }
      return {
        kind,
        title: `Learn ${domain} from ${shown(sessions)}`,
        params: { kind, domain, sessions: shown(sessions), out: shown(out), overwrite, habit_only: habitOnly, constants },
        args: ["learn", "--sessions", sessions, "--domain", domain, "--out", out, ...(habitOnly ? ["--habit-only"] : ["--oracle-cache", cache]), ...(constants ? ["--constants"] : [])],
        artifacts: [{ kind: "flow", abs: out }],
      };
    }
    case "promote": {
      const flow = flowOf(ctx, b);
      const sessions = dir(ctx, "sessions", b["sessions"]);
      const oracle = b["oracle_cache"] === undefined ? cache : path(ctx, "oracle_cache", b["oracle_cache"]);
      const threshold = prob(b, "threshold", 0.3);
      const minUsed = prob(b, "min_used", 0.7);
      const minLower = prob(b, "min_lower", 0.5);
      const minTasks = num(b, "min_tasks", 3);
      if (!Number.isInteger(minTasks) || minTasks < 1) throw badRequest("min_tasks: at least 1");
      const overwrite = bool(b, "overwrite", false);
      const out = output(ctx, b["out"] === undefined ? join(dirname(flow.abs), `${flow.name}.promoted.flow.json`) : path(ctx, "out", b["out"]), overwrite);
      const md = report("md");
      return {
        kind,
        title: `Promote ${flow.name} on ${shown(sessions)}`,
        params: { kind, flow: flow.key, sessions: shown(sessions), oracle_cache: shown(oracle), threshold, min_used: minUsed, min_lower: minLower, min_tasks: minTasks, out: shown(out), overwrite },
        args: ["promote", "--flow", flow.abs, "--sessions", sessions, "--oracle-cache", oracle, "--threshold", String(threshold), "--min-used", String(minUsed), "--min-lower", String(minLower), "--min-tasks", String(minTasks), "--out", out, "--report", md],
        artifacts: [{ kind: "flow", abs: out }, { kind: "report", abs: md }],
      };
    }
    case "audit": {
      const flow = flowOf(ctx, b);
      const sessions = dir(ctx, "sessions", b["sessions"]);
      const md = report("md");
      const json = report("json");
      return {
        kind,
        title: `Audit ${flow.name} on ${shown(sessions)}`,
        params: { kind, flow: flow.key, sessions: shown(sessions), decider: b["decider"] ?? null },
        args: ["audit", "--flow", flow.abs, "--sessions", sessions, "--oracle", "replay", "--oracle-cache", cache, "--out", md, "--json", json, ...decider(b)],
        artifacts: [{ kind: "report", abs: json }, { kind: "report", abs: md }],
      };
    }
    case "drift": {
      const flow = flowOf(ctx, b);
      const sessions = dir(ctx, "sessions", b["sessions"]);
      const window = num(b, "window", 10);
      if (!Number.isInteger(window) || window < 3) throw badRequest(`window ${window}: at least 3 sessions, as a change needs three of the new run`);
      const threshold = num(b, "threshold", 0.5);
      if (!(threshold > 0 && threshold <= 1)) throw badRequest(`threshold ${threshold}: a probability above 0 and at most 1`);
      const md = report("md");
      const json = report("json");
      return {
        kind,
        title: `Drift of ${flow.name} on ${shown(sessions)}`,
        params: { kind, flow: flow.key, sessions: shown(sessions), decider: b["decider"] ?? null, window, threshold },
        args: ["drift", "--flow", flow.abs, "--sessions", sessions, "--oracle", "replay", "--oracle-cache", cache, "--window", String(window), "--threshold", String(threshold), "--out", md, "--json", json, ...decider(b)],
        artifacts: [{ kind: "report", abs: json }, { kind: "report", abs: md }],
      };
    }
    case "stage": {
      const flow = flowOf(ctx, b);
      const committed = flow.abs.replace(/\.staged\.flow\.json$/, ".flow.json");
      let domain: string;
      try {
        domain = loadFlow(flow.abs).manifest.domain;
      } catch (e) {
        throw new ApiFailure(422, `${shown(flow.abs)} does not load: ${errorText(e)}`);
      }
      const sessions = dir(ctx, "sessions", b["sessions"]);
      const window = num(b, "window", 50);
      if (!Number.isInteger(window) || window < 1) throw badRequest("window: at least 1 session");
      const half = b["half_life"];
      if (half !== undefined && half !== null && !(typeof half === "number" && Number.isFinite(half) && half > 0)) throw badRequest(`half_life ${JSON.stringify(half)}: a number of sessions, more than 0`);
      const constants = bool(b, "constants", false);
      const md = report("md");
      const json = report("json");
      const name = basename(committed).replace(/\.flow\.json$/, "");
      return {
        kind,
        title: `Stage ${name} from ${shown(sessions)}`,
        params: { kind, flow: flow.key, sessions: shown(sessions), window, decider: b["decider"] ?? null, half_life: half ?? null, constants },
        args: [
          "stage", "--flow", committed, "--domain", domain, "--sessions", sessions, "--oracle-cache", cache, "--window", String(window), "--out", md, "--json", json,
          ...decider(b), ...(typeof half === "number" ? ["--half-life", String(half)] : []), ...(constants ? ["--constants"] : []),
        ],
        artifacts: [{ kind: "flow", abs: join(dirname(committed), `${name}.staged.flow.json`) }, { kind: "report", abs: md }, { kind: "report", abs: json }],
      };
    }
    case "redact": {
      if (!ctx.env["STRETTO_REDACT_SALT"]) throw badRequest("redacting needs a salt: set STRETTO_REDACT_SALT in the console's environment (docs/privacy.md)");
      const sessions = dir(ctx, "sessions", b["sessions"]);
      if (b["out"] === undefined) throw badRequest("out: name the directory the redacted copy goes to");
      const out = path(ctx, "out", b["out"]);
      if (inside(out, sessions) || inside(sessions, out)) throw badRequest("out: the redacted copy goes in a directory of its own, apart from the sessions");
      const keep = num(b, "keep_shared", 3);
      if (!Number.isInteger(keep) || keep < 1) throw badRequest("keep_shared: at least 1");
      const fieldsText = typeof b["hash_fields"] === "string" ? b["hash_fields"] : "";
      const fields = fieldsText.split(",").map((f) => f.trim()).filter((f) => f !== "");
      if (fields.some((f) => /\s/.test(f))) throw badRequest("hash_fields: field names, without spaces");
      return {
        kind,
        title: `Redact ${shown(sessions)}`,
        params: { kind, sessions: shown(sessions), out: shown(out), keep_shared: keep, hash_fields: fields.join(",") },
        args: ["redact", "--sessions", sessions, "--out", out, "--keep-shared", String(keep), ...fields.flatMap((f) => ["--hash-field", f])],
        artifacts: [{ kind: "dir", abs: out }],
      };
    }
    case "doctor":
      return { kind, title: "Check the installation", params: { kind }, args: ["doctor", "--data", ctx.data], artifacts: [] };
    default:
      throw badRequest(`the job is not as expected: kind ${JSON.stringify(b["kind"])} is not one of ${JOB_KINDS.join(", ")}`);
  }
}
