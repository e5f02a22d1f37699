/**
 * A folder of session logs read as sessions, one at a time (merged as merge.ts says): each log is first
 * scanned as a stream for what grouping needs; then each session is built in turn. Only a
 * host session's logs that are merged are held in memory together.
 *
 * A file named as a log that is none (0 bytes, no session-log header, not readable, not a
 * regular file) fails the whole reading, unless the folder is planned with a skip handler:
 * then it is left out, the handler is told, and the rest is read. A log with a good header
 * and a damaged entry always fails the reading, as a single log's reading does.
 */
import { compareCodePoints } from "./json.js";
import { episode, readEpisode, readEpisodeSync } from "./episode.js";
import type { Episode } from "./episode-types.js";
import type { LogEntry } from "./log-types.js";
import { ManifestBuilder, readManifest, type ToolManifest } from "./manifest.js";
import { mergedLog, planSessions, type MergePlan, type SessionPlan } from "./merge.js";
import { qualifiedEntry } from "./qualify.js";
import { listFolderLogs, listFolderLogsSync, skipError, skipReason, type Listed, type SkipHandler, type SkippedLog } from "./folder-logs.js";
import { LogReadError, readLog } from "./read-log.js";
import { scanLog, scanLogSync } from "./scan-log.js";
import type { LogSummary } from "./sessions.js";
import type { McpLog } from "./log-types.js";

export interface Folder {
  /** The session logs, sorted by header `session`, with their summaries. */
  paths: string[];
  summaries: LogSummary[];
  plan: MergePlan;
  /** Given to {@link planFolder}: files that are no session logs are skipped and told to it. */
  skip?: SkipHandler | undefined;
}

/** How far a long read has come: `done` of `total` logs. */
export type Progress = (done: number, total: number) => void;

/** How many logs are scanned at once: the scan is mostly waiting on small reads. */
const SCANS_AT_ONCE = 8;

/**
 * Scan every session log in `dir` and plan its sessions. With `skip`, a file that is no
 * session log is left out and told to it (in name order); without, it fails the planning.
 * With `sync`, the folder is listed and each log scanned synchronously, one after another:
 * several times faster for a batch tool, which has nothing else to do meanwhile (each
 * asynchronous open, read, stat and close is a round trip through the thread pool that
 * costs more than the small read itself); a server keeps the default.
 */
export async function planFolder(dir: string, progress?: Progress, skip?: SkipHandler, o: { sync?: boolean } = {}): Promise<Folder> {
  const listed = o.sync === true ? listFolderLogsSync(dir) : await listFolderLogs(dir);
  const scan = new FolderScan(listed, progress, skip);
  if (o.sync === true) {
    for (let i = scan.next(); i !== undefined; i = scan.next()) scan.settle(i, () => scanLogSync(listed[i]!.path));
  } else {
    const worker = async (): Promise<void> => {
      for (let i = scan.next(); i !== undefined; i = scan.next()) {
        const path = listed[i]!.path;
        await scan.settleAsync(i, () => scanLog(path));
      }
    };
    await Promise.all(Array.from({ length: Math.min(SCANS_AT_ONCE, listed.length) }, worker));
  }
  return scan.folder();
}

/** What scanning one log came to. */
type Scanned = { summary: LogSummary } | { error: unknown };

/** The scanning of a folder's listing, in whatever order its logs' scans finish. */
class FolderScan {
  private readonly summaries: (LogSummary | undefined)[];
  /**
   * Each log's problem by its place in the listing, so what is told comes in name order
   * however reads finish. `skipped` is absent for an error that is no log's fault.
   */
  private readonly problems = new Map<number, { error: unknown; skipped?: SkippedLog }>();
  private taken = 0;
  private done = 0;

  constructor(
    private readonly listed: readonly Listed[],
    private readonly progress: Progress | undefined,
    private readonly skip: SkipHandler | undefined,
  ) {
    this.summaries = new Array<LogSummary | undefined>(listed.length);
    listed.forEach((l, i) => {
      if (l.readable) return;
      const skipped = { path: l.path, reason: l.reason };
      this.problems.set(i, { error: skipError(skipped), skipped });
    });
  }

  /** The next log to scan; none once all are taken, or once a problem before it stops the scanning. */
  next(): number | undefined {
    return this.taken < this.listed.length && !this.stopsBefore(this.taken) ? this.taken++ : undefined;
  }

  /** Without a skip handler, scanning stops once a problem is known before what comes next. */
  private stopsBefore(next: number): boolean {
    return [...this.problems].some(([i, p]) => i < next && (this.skip === undefined || !p.skipped));
  }

  /** Scans log `i` if it can be read, and records what came of it. */
  settle(i: number, scan: () => LogSummary): void {
    let outcome: Scanned | undefined;
    if (this.listed[i]!.readable) {
      try {
        outcome = { summary: scan() };
      } catch (error) {
        outcome = { error };
      }
    }
    this.record(i, outcome);
  }

  async settleAsync(i: number, scan: () => Promise<LogSummary>): Promise<void> {
    const outcome = this.listed[i]!.readable ? await scan().then((summary): Scanned => ({ summary }), (error: unknown): Scanned => ({ error })) : undefined;
    this.record(i, outcome);
  }

  /** A log's summary or problem (none for a name the listing refused), then the progress. */
  private record(i: number, outcome: Scanned | undefined): void {
    if (outcome !== undefined && "summary" in outcome) this.summaries[i] = outcome.summary;
    else if (outcome !== undefined) {
      const { error: e } = outcome;
      const path = this.listed[i]!.path;
      this.problems.set(i, isSkippable(e) ? { error: e, skipped: { path, reason: skipReason(e, path) } } : { error: e });
    }
    this.progress?.(++this.done, this.listed.length);
  }

  /** The plan, or the first problem (in name order) that is not skipped. */
  folder(): Folder {
    const inOrder = [...this.problems].sort(([a], [b]) => a - b).map(([, p]) => p);
    const fatal = inOrder.find((p) => this.skip === undefined || !p.skipped);
    if (fatal) throw fatal.error;
    for (const p of inOrder) this.skip!(p.skipped!);
    const kept = this.listed.flatMap((l, i) => (this.summaries[i] ? [{ path: l.path, summary: this.summaries[i] }] : []));
    kept.sort((a, b) => compareCodePoints(a.summary.header.session, b.summary.header.session));
    const sorted = kept.map((k) => k.summary);
    return { paths: kept.map((k) => k.path), summaries: sorted, plan: planSessions(sorted), skip: this.skip };
  }
}

/**
 * Each session's episode, in plan order. With `sync`, a session of one log is read
 * synchronously (`readEpisodeSync`): faster for a batch tool, which has nothing else to do
 * meanwhile; a server keeps the default, which lets its event loop run during each read.
 */
export async function* folderEpisodes(folder: Folder, progress?: Progress, o: { sync?: boolean } = {}): AsyncGenerator<Episode> {
  const total = folder.plan.sessions.length;
  let done = 0;
  for (const s of folder.plan.sessions) {
    let ep: Episode | undefined;
    if (s.kind === "merged") {
      const log = await readMerged(folder, s);
      if (log) ep = episode(log);
    } else {
      const read = o.sync === true ? (path: string) => Promise.resolve().then(() => readEpisodeSync(path, entryMap(s))) : (path: string) => readEpisode(path, entryMap(s));
      ep = await skipping(folder, folder.paths[s.index]!, read);
    }
    if (ep) yield ep;
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
      for (const e of (await readMerged(folder, s))?.entries ?? []) one.entry(e);
      all.absorb(one);
    } else {
      const read = await skipping(folder, folder.paths[s.index]!, (path) => readManifest(path, entryMap(s)));
      if (read) all.absorb(read.listed);
    }
    progress?.(++done, total);
  }
  return all.finish(domain);
}

/** A host session's logs merged; a log skipped here leaves the others merged without it. */
async function readMerged(folder: Folder, s: Extract<SessionPlan, { kind: "merged" }>): Promise<McpLog | undefined> {
  const parts: { log: McpLog; server: string }[] = [];
  for (const p of s.parts) {
    const log = await skipping(folder, folder.paths[p.index]!, readLog);
    if (log) parts.push({ log, server: p.server });
  }
  return parts.length > 0 ? mergedLog(s.session, parts) : undefined;
}

/**
 * What `read` makes of a log, or undefined once the skip handler was told it is no log. The
 * planning read every header already; this is for a file changed since (truncated, say).
 */
async function skipping<T>(folder: Folder, path: string, read: (path: string) => Promise<T>): Promise<T | undefined> {
  try {
    return await read(path);
  } catch (e) {
    if (!isSkippable(e) || folder.skip === undefined) throw e;
    folder.skip({ path, reason: skipReason(e, path) });
    return undefined;
  }
}

function entryMap(s: SessionPlan): ((e: LogEntry) => LogEntry) | undefined {
  return s.kind === "qualified" ? (e) => qualifiedEntry(e, s.server) : undefined;
}

/**
 * A file that is no session log (0 bytes, another kind of file, unreadable) may be skipped;
 * a log whose header was read and whose entries are damaged may not: it fails the reading.
 */
function isSkippable(e: unknown): e is LogReadError {
  return e instanceof LogReadError && e.noHeader;
}
