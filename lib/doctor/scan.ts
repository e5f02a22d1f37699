/**
 * What the data folder holds, three levels down: flows (`*.flow.json`) and session logs
 * (`*.jsonl` but the proxy's side logs), counted per folder with the domains their headers
 * name. The oracle cache (thousands of answers) and `*.history` folders (a staged flow's past
 * versions) are not entered. Folders are not followed through symbolic links, so a link to
 * a parent cannot loop.
 */
import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { FlowLoadError, loadFlow } from "../flow/ir/load-flow.js";
import type { Flow } from "../flow/ir/flow-types.js";
import { forEachLine, isSessionLog } from "../trace/index.js";
import { errorText } from "../util/error-text.js";
import { isObject } from "../util/is-object.js";
import { count, type Finding } from "./finding.js";

const DEPTH = 3;
const NOT_ENTERED = (name: string) => name === "oracle-cache" || name.endsWith(".history");

export interface Scanned {
  flows: string[];
  /** Session logs by the folder that holds them, in path order. */
  sessions: Map<string, string[]>;
}

export async function scanData(dir: string): Promise<Scanned> {
  const scanned: Scanned = { flows: [], sessions: new Map() };
  await walk(dir, 1, scanned);
  return scanned;
}

async function walk(dir: string, depth: number, into: Scanned): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    // A folder this user cannot list holds nothing doctor can report on.
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (depth < DEPTH && !NOT_ENTERED(e.name)) await walk(path, depth + 1, into);
    } else if (e.name.endsWith(".flow.json")) {
      into.flows.push(path);
    } else if (isSessionLog(e.name)) {
      const list = into.sessions.get(dir) ?? [];
      list.push(path);
      into.sessions.set(dir, list);
    }
  }
}

/** `~/…` for a path under HOME. */
export function shown(path: string, home: string | undefined): string {
  if (home === undefined || home === "") return path;
  if (path === home) return "~";
  return path.startsWith(home + sep) ? `~${sep}${path.slice(home.length + 1)}` : path;
}

/** The findings about flows and sessions in `dir`. */
export async function filesFindings(dir: string, home: string | undefined): Promise<Finding[]> {
  const scanned = await scanData(dir);
  const where = shown(dir, home);
  const flows: Finding =
    scanned.flows.length === 0
      ? { level: "note", text: `no flows in ${where} yet (\`stretto learn\` writes one)` }
      : { level: "ok", text: `${count(scanned.flows.length, "flow")} in ${where}:`, items: scanned.flows.map((p) => flowItem(p, home)) };
  if (scanned.sessions.size === 0) return [flows, { level: "note", text: `no recorded sessions in ${where} yet` }];
  const items: string[] = [];
  for (const [folder, logs] of scanned.sessions) {
    const domains = new Set<string>();
    for (const log of logs) domains.add(await headerDomain(log));
    items.push(`${relative(dir, folder) || "."}: ${count(logs.length, "session")}, domain ${[...domains].sort().join(", ")}`);
  }
  return [flows, { level: "ok", text: `recorded sessions in ${where}:`, items }];
}

function flowItem(path: string, home: string | undefined): string {
  let flow: Flow;
  try {
    flow = loadFlow(path);
  } catch (e) {
    return `${shown(path, home)}: this stretto cannot read it (${e instanceof FlowLoadError ? e.message : errorText(e)})`;
  }
  const sessions = count(flow.provenance.habitEpisodes, "session");
  return `${shown(path, home)}: domain ${flow.manifest.domain}, from ${sessions}, decides ${howItDecides(flow)}${flow.promoted === undefined ? "" : ", promoted"}`;
}

/** How the proxy serves the flow by default, and what that needs. */
function howItDecides(flow: Flow): string {
  if (flow.folds.length > 0) return "with an arbiter, which asks Jev when served (`--flow-decider habit` needs no key)";
  if (flow.reach !== undefined) return "on its habit and what comes before a write (`--flow-decider reach`, no key)";
  return "on its habit alone (serve it with `--flow-decider habit`, no key)";
}

/** The header's `domain`, or `none`. A log whose first line is unreadable still counts. */
async function headerDomain(path: string): Promise<string> {
  let domain = "none";
  try {
    await forEachLine(path, (_n, text) => {
      const header: unknown = JSON.parse(text);
      if (isObject(header) && typeof header["domain"] === "string" && header["domain"] !== "") domain = header["domain"];
      return true;
    });
  } catch {
    // No header to read: the log still counts, with no domain.
  }
  return domain;
}
