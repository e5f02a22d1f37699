/**
 * Reading a run of a planned folder's sessions: each session's episode into a store, the
 * tools its servers listed and their contracts, in plan order. A session of one log is read
 * as a stream, its entries going at once to the episode, the listing and the contracts, so
 * no log is ever held whole; only a host session whose logs are merged across servers
 * (tools named `server::tool`) holds its logs while they are merged.
 *
 * A log of one session is read synchronously: a folder holds thousands of small logs, and
 * an asynchronous open, read and close each go through the thread pool, which cost more
 * than reading the log (and two reading threads then wait on the same pool). The event
 * loop is let run every {@link SESSIONS_PER_TURN} sessions, so progress and messages from
 * another thread are not held up.
 */
import {
  EpisodeBuilder,
  ManifestBuilder,
  contract,
  entryMessages,
  mergedLog,
  qualifiedEntry,
  readLog,
  streamLogSync,
  type Episode,
  type Folder,
  type LogEntry,
  type LogHeader,
  type McpLog,
} from "../trace/index.js";
import { compareCodePoints, field } from "../trace/json.js";
import { ToolListings } from "../trace/tool-listing.js";
import { EpisodeStore } from "./episode-store.js";

export type SessionPlan = Folder["plan"]["sessions"][number];

/** One session's episode, listing and contracts, built entry by entry. */
class SessionReader {
  private readonly episode = new EpisodeBuilder();
  readonly listed = new ManifestBuilder();
  private readonly listings = new ToolListings();
  private readonly contracts = new Map<string, string>();

  entry(e: LogEntry): void {
    this.episode.entry(e);
    this.listed.entry(e);
    for (const m of entryMessages(e)) {
      for (const tool of this.listings.listed(e.from, m) ?? []) {
        const name = field(tool, "name");
        const c = contract(tool);
        if (typeof name === "string" && c !== undefined) this.contracts.set(name, c);
      }
    }
  }

  /** The episode, and the session's contracts by tool name (a later listing replaced one). */
  finish(header: LogHeader): { episode: Episode; contracts: [string, string][] } {
    return { episode: this.episode.finish(header), contracts: [...this.contracts].sort(([a], [b]) => compareCodePoints(a, b)) };
  }
}

/** How many sessions are read between two turns of the event loop. */
const SESSIONS_PER_TURN = 32;

function streamed(path: string, map?: (e: LogEntry) => LogEntry): SessionReader & { header: LogHeader } {
  const reader = new SessionReader();
  let header: LogHeader | undefined;
  streamLogSync(path, { header: (h) => (header = h), entry: map ? (e) => reader.entry(map(e)) : (e) => reader.entry(e) });
  return Object.assign(reader, { header: header! });
}

async function readSession(paths: readonly string[], s: SessionPlan): Promise<SessionReader & { header: LogHeader }> {
  if (s.kind === "as-is") return streamed(paths[s.index]!);
  if (s.kind === "qualified") return streamed(paths[s.index]!, (e) => qualifiedEntry(e, s.server));
  const parts = await Promise.all(s.parts.map(async (p) => ({ log: await readLog(paths[p.index]!), server: p.server })));
  const log: McpLog = mergedLog(s.session, parts);
  const reader = new SessionReader();
  for (const e of log.entries) reader.entry(e);
  return Object.assign(reader, { header: log.header });
}

/** What a run of sessions gave: their episodes, the tools they listed (later ones win), their contracts. */
export interface SessionsRead {
  episodes: EpisodeStore;
  listed: ManifestBuilder;
  /** Each listed tool's input contract; a later listing wins. */
  contracts: Map<string, string>;
}

/** The sessions `plans` of the logs at `paths`, one after another, `read` told after each and `each` given each episode. */
export async function readSessionRun(paths: readonly string[], plans: readonly SessionPlan[], read?: () => void, each?: (ep: Episode) => void): Promise<SessionsRead> {
  const out: SessionsRead = { episodes: new EpisodeStore(), listed: new ManifestBuilder(), contracts: new Map() };
  for (const [i, s] of plans.entries()) {
    if (i % SESSIONS_PER_TURN === SESSIONS_PER_TURN - 1) await new Promise((turn) => setImmediate(turn));
    const session = await readSession(paths, s);
    const { episode, contracts } = session.finish(session.header);
    each?.(episode);
    out.episodes.add(episode);
    out.listed.absorb(session.listed);
    for (const [tool, c] of contracts) out.contracts.set(tool, c);
    read?.();
  }
  return out;
}
