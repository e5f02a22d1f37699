/**
 * A folder of session logs read as sessions, one at a time (§8.1, §8.6): each log is first
 * scanned as a stream for what grouping needs; then each session is built in turn. Only a
 * host session's logs that are merged are held in memory together.
 */
import { compareCodePoints } from "./json.js";
import { episode, readEpisode } from "./episode.js";
import type { Episode } from "./episode-types.js";
import type { LogEntry } from "./log-types.js";
import { ManifestBuilder, readManifest, type ToolManifest } from "./manifest.js";
import { mergedLog, planSessions, type MergePlan, type SessionPlan } from "./merge.js";
import { qualifiedEntry } from "./qualify.js";
import { readLog, sessionLogPaths } from "./read-log.js";
import { scanLog } from "./scan-log.js";
import type { LogSummary } from "./sessions.js";
import type { McpLog } from "./log-types.js";

export interface Folder {
  /** The session logs, sorted by header `session`, with their summaries. */
  paths: string[];
  summaries: LogSummary[];
  plan: MergePlan;
}

/** How far a long read has come: `done` of `total` logs. */
export type Progress = (done: number, total: number) => void;

/** How many logs are scanned at once: the scan is mostly waiting on small reads. */
const SCANS_AT_ONCE = 8;

/** Scan every session log in `dir` and plan its sessions. */
export async function planFolder(dir: string, progress?: Progress): Promise<Folder> {
  const found = await sessionLogPaths(dir);
  const summaries = new Array<LogSummary>(found.length);
  // Each log's failure, so the error told is the first log's in order, however reads finish.
  const failures = new Map<number, unknown>();
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < found.length && failures.size === 0) {
      const i = next++;
      try {
        summaries[i] = await scanLog(found[i]!);
      } catch (e) {
        failures.set(i, e);
      }
      progress?.(++done, found.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SCANS_AT_ONCE, found.length) }, worker));
  if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
  const order = found.map((_, i) => i).sort((a, b) => compareCodePoints(summaries[a]!.header.session, summaries[b]!.header.session));
  const sorted = order.map((i) => summaries[i]!);
  return { paths: order.map((i) => found[i]!), summaries: sorted, plan: planSessions(sorted) };
}

/** Each session's episode, in plan order. */
export async function* folderEpisodes(folder: Folder, progress?: Progress): AsyncGenerator<Episode> {
  const total = folder.plan.sessions.length;
  let done = 0;
  for (const s of folder.plan.sessions) {
    if (s.kind === "merged") yield episode(await readMerged(folder, s));
    else yield await readEpisode(folder.paths[s.index]!, entryMap(s));
    progress?.(++done, total);
  }
}

/** The tools every session's servers listed, as one manifest; later sessions win. */
export async function folderManifest(folder: Folder, domain: string, progress?: Progress): Promise<ToolManifest> {
  const all = new ManifestBuilder();
  const total = folder.plan.sessions.length;
  let done = 0;
  for (const s of folder.plan.sessions) {
    if (s.kind === "merged") {
      const one = new ManifestBuilder();
      for (const e of (await readMerged(folder, s)).entries) one.entry(e);
      all.absorb(one);
    } else all.absorb((await readManifest(folder.paths[s.index]!, entryMap(s))).listed);
    progress?.(++done, total);
  }
  return all.finish(domain);
}

async function readMerged(folder: Folder, s: Extract<SessionPlan, { kind: "merged" }>): Promise<McpLog> {
  const parts: { log: McpLog; server: string }[] = [];
  for (const p of s.parts) parts.push({ log: await readLog(folder.paths[p.index]!), server: p.server });
  return mergedLog(s.session, parts);
}

function entryMap(s: SessionPlan): ((e: LogEntry) => LogEntry) | undefined {
  return s.kind === "qualified" ? (e) => qualifiedEntry(e, s.server) : undefined;
}
