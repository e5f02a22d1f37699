/**
 * What the learner reads from a folder of session logs: each session's episode, the tools
 * its servers listed and their contracts. A session of one log is read as a stream, its
 * entries going at once to the episode, the listing and the contracts, so no log is ever
 * held whole; only a host session whose logs are merged across servers (tools named
 * `server::tool`) holds its logs while they are merged. Each episode goes into an
 * {@link EpisodeStore}, compressed with the others, so memory holds neither the logs nor
 * the episodes as objects.
 */
import {
  EpisodeBuilder,
  ManifestBuilder,
  contract,
  entryMessages,
  mergedLog,
  qualifiedEntry,
  readLog,
  streamLog,
  type Episode,
  type Folder,
  type LogEntry,
  type LogHeader,
  type McpLog,
  type Progress,
} from "../trace/index.js";
import { compareCodePoints, field } from "../trace/json.js";
import { ToolListings } from "../trace/tool-listing.js";
import { EpisodeStore } from "./episode-store.js";

export interface FolderSessions {
  episodes: EpisodeStore;
  /** The tools every session listed; a later session wins. */
  listed: ManifestBuilder;
  /** Each listed tool's input contract; a later listing wins. */
  contracts: Map<string, string>;
}

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

async function streamed(path: string, map?: (e: LogEntry) => LogEntry): Promise<SessionReader & { header: LogHeader }> {
  const reader = new SessionReader();
  let header: LogHeader | undefined;
  await streamLog(path, { header: (h) => (header = h), entry: map ? (e) => reader.entry(map(e)) : (e) => reader.entry(e) });
  return Object.assign(reader, { header: header! });
}

async function readSession(folder: Folder, s: Folder["plan"]["sessions"][number]): Promise<SessionReader & { header: LogHeader }> {
  if (s.kind === "as-is") return streamed(folder.paths[s.index]!);
  if (s.kind === "qualified") return streamed(folder.paths[s.index]!, (e) => qualifiedEntry(e, s.server));
  const parts = await Promise.all(s.parts.map(async (p) => ({ log: await readLog(folder.paths[p.index]!), server: p.server })));
  const log: McpLog = mergedLog(s.session, parts);
  const reader = new SessionReader();
  for (const e of log.entries) reader.entry(e);
  return Object.assign(reader, { header: log.header });
}

/** Every session of a planned folder, in plan order (by header session). */
export async function readFolderSessions(folder: Folder, progress?: Progress): Promise<FolderSessions> {
  const out: FolderSessions = { episodes: new EpisodeStore(), listed: new ManifestBuilder(), contracts: new Map() };
  const total = folder.plan.sessions.length;
  let done = 0;
  for (const s of folder.plan.sessions) {
    const read = await readSession(folder, s);
    const { episode, contracts } = read.finish(read.header);
    out.episodes.add(episode);
    out.listed.absorb(read.listed);
    for (const [tool, c] of contracts) out.contracts.set(tool, c);
    progress?.(++done, total);
  }
  return out;
}
