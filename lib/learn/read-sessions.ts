/**
 * What the learner reads from a folder of session logs: each session's episode, the tools
 * its servers listed and their contracts. Each session's log (a host session's logs merged
 * across servers, tools named `server::tool`) is read once and let go before the next, so
 * memory holds the episodes, not the logs.
 */
import {
  ManifestBuilder,
  contractsOf,
  episode,
  mergedLog,
  qualifiedLog,
  readLog,
  type Episode,
  type Folder,
  type McpLog,
  type Progress,
} from "../trace/index.js";

export interface FolderSessions {
  episodes: Episode[];
  /** The tools every session listed; a later session wins. */
  listed: ManifestBuilder;
  /** Each listed tool's input contract; a later listing wins. */
  contracts: Map<string, string>;
}

async function sessionLog(folder: Folder, s: Folder["plan"]["sessions"][number]): Promise<McpLog> {
  if (s.kind === "as-is") return readLog(folder.paths[s.index]!);
  if (s.kind === "qualified") return qualifiedLog(await readLog(folder.paths[s.index]!), s.server);
  const parts = await Promise.all(s.parts.map(async (p) => ({ log: await readLog(folder.paths[p.index]!), server: p.server })));
  return mergedLog(s.session, parts);
}

/** Every session of a planned folder, in plan order (by header session). */
export async function readFolderSessions(folder: Folder, progress?: Progress): Promise<FolderSessions> {
  const out: FolderSessions = { episodes: [], listed: new ManifestBuilder(), contracts: new Map() };
  const total = folder.plan.sessions.length;
  let done = 0;
  for (const s of folder.plan.sessions) {
    const log = await sessionLog(folder, s);
    out.episodes.push(episode(log));
    const one = new ManifestBuilder();
    for (const e of log.entries) one.entry(e);
    out.listed.absorb(one);
    for (const [tool, c] of contractsOf([log])) out.contracts.set(tool, c);
    progress?.(++done, total);
  }
  return out;
}
