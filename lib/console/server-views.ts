/**
 * A registry entry as the console shows it: the proxy arguments and each host's configuration
 * as `stretto init` writes them (its library builds both, so they cannot differ), and what is
 * wrong with the entry (a flow missing or for another domain, a command not on PATH).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { HostConfig, HostName, ServerEntry } from "./api-types.js";
import { loadFlow, type Flow } from "../flow/ir/index.js";
import { isProgram, listenAt, nextSteps, onPath, placement, proxyName, snippet, stdioArgs, listeningArgs, type Host, type Setup } from "../init/index.js";
import { errorText } from "../util/error-text.js";
import { requestPath } from "./data-paths.js";


export interface ViewContext {
  data: string;
  home: string | undefined;
  exe: string | undefined;
  path: string | undefined;
}

/** A path as a host's configuration names it: `~/…` under home, else absolute. */
function forHost(abs: string, home: string | undefined): string {
  if (home !== undefined && home !== "" && abs.startsWith(home + "/")) return `~/${abs.slice(home.length + 1)}`;
  return abs;
}

function resolved(p: string | null, ctx: ViewContext): string | undefined {
  if (p === null) return undefined;
  try {
    return requestPath(p, ctx.data, ctx.home);
  } catch {
    return undefined;
  }
}

function loaded(abs: string | undefined): { flow?: Flow; error?: string } {
  if (abs === undefined || !existsSync(abs)) return {};
  try {
    return { flow: loadFlow(abs) };
  } catch (e) {
    return { error: errorText(e) };
  }
}

/** What `stretto init` would be given for this server. */
export function setupOf(e: ServerEntry, host: Host, ctx: ViewContext): Setup {
  const shadow = e.mode === "shadow";
  const recordAbs = resolved(e.record_dir ?? `${shadow ? "shadow" : "logs"}/${e.name}`, ctx) ?? join(ctx.data, shadow ? "shadow" : "logs", e.name);
  const flowAbs = e.mode === "record" ? undefined : resolved(e.flow, ctx);
  const { flow } = loaded(flowAbs);
  const hasArbiter = flow !== undefined && flow.folds.length > 0;
  const decider = e.decider === "reach" || e.decider === "habit" ? e.decider : e.decider === "arbiter" ? undefined : flow === undefined ? undefined : hasArbiter ? undefined : flow.reach === undefined ? "habit" : "reach";
  const at = e.listen === null ? undefined : listenAt(e.listen.addr);
  return {
    host,
    domain: e.name,
    proxy: proxyName(host, ctx.path, ctx.exe).proxy,
    record: forHost(recordAbs, ctx.home),
    ...(flowAbs === undefined ? {} : { flow: { path: forHost(flowAbs, ctx.home), hasArbiter, shadow, ...(decider === undefined ? {} : { decider }) } }),
    ...(e.retain_days === null ? {} : { retainDays: e.retain_days }),
    guards: e.guards,
    ...(e.judge === null ? {} : { judge: { mode: e.judge.mode, context: e.judge.context } }),
    commit: e.commit,
    ...(at === undefined ? {} : { listen: { ...at, ...(e.listen?.token_file ? { tokenFile: e.listen.token_file } : {}) } }),
    target: e.upstream.kind === "stdio" ? { kind: "command", words: e.upstream.command } : { kind: "upstream", url: e.upstream.url, headers: e.upstream.headers.map((h) => ({ name: h.name, variable: h.env })) },
  };
}

export function proxyArgs(e: ServerEntry, ctx: ViewContext): string[] {
  const s = setupOf(e, "claude-code", ctx);
  return s.listen === undefined ? stdioArgs(s) : listeningArgs(s);
}

export function hostConfig(e: ServerEntry, host: HostName, ctx: ViewContext): HostConfig {
  const s = setupOf(e, host, ctx);
  return {
    host,
    language: host === "claude-code" ? "shell" : "json",
    snippet: snippet(s),
    placement: placement(host),
    next_steps: nextSteps(s),
  };
}

export function serverIssues(e: ServerEntry, ctx: ViewContext): string[] {
  const issues: string[] = [];
  if (e.mode !== "record" && e.flow === null) issues.push(`mode is ${e.mode} but no flow is set`);
  if (e.flow !== null) {
    const abs = resolved(e.flow, ctx);
    if (abs === undefined) issues.push(`the flow's path cannot be used: ${e.flow}`);
    else if (!existsSync(abs)) issues.push(`flow not found: ${e.flow}`);
    else {
      const { flow, error } = loaded(abs);
      if (error !== undefined) issues.push(`the flow does not load: ${error}`);
      if (flow !== undefined) {
        if (flow.manifest.domain !== e.name) issues.push(`the flow's domain is ${flow.manifest.domain}, not ${e.name}: learn it from this server's sessions`);
        if (e.decider === "arbiter" && flow.folds.length === 0) issues.push("decider is arbiter, but the flow has no arbiter");
        if (e.decider === "reach" && flow.reach === undefined) issues.push("decider is reach, but the flow holds no reach counts: learn it again");
      }
      if (e.mode === "record") issues.push("mode is record, so the flow is not run: choose shadow or serve");
    }
  }
  if (e.upstream.kind === "stdio") {
    const program = e.upstream.command[0] ?? "";
    const found = program.includes("/") ? isProgram(program) : onPath(program, ctx.path) !== undefined;
    if (!found) issues.push(`${program} is not found on the console's PATH: the host must find it`);
  }
  return issues;
}

export function flowAbsOf(e: ServerEntry, ctx: ViewContext): string | undefined {
  return resolved(e.flow, ctx);
}
