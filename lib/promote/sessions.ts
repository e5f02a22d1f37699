/**
 * The sessions promotion scores, with when each call was sent: a folder's session logs (a
 * host session's logs merged across servers, tools named `server::tool`), read one at a
 * time, and τ²-bench results, whose episodes know nothing of calls in flight.
 */
import { episodeSent, mergedLog, qualifiedLog, readLog, type Folder, type McpLog, type Progress } from "../trace/index.js";
import type { Episode } from "../trace/episode-types.js";
import type { SentSession } from "./score.js";

async function sessionLog(folder: Folder, s: Folder["plan"]["sessions"][number]): Promise<McpLog> {
  if (s.kind === "as-is") return readLog(folder.paths[s.index]!);
  if (s.kind === "qualified") return qualifiedLog(await readLog(folder.paths[s.index]!), s.server);
  const parts = await Promise.all(s.parts.map(async (p) => ({ log: await readLog(folder.paths[p.index]!), server: p.server })));
  return mergedLog(s.session, parts);
}

/** Each session of a planned folder, in plan order; its task is its own id. */
export async function* folderSessions(folder: Folder, progress?: Progress): AsyncGenerator<SentSession> {
  const total = folder.plan.sessions.length;
  let done = 0;
  for (const s of folder.plan.sessions) {
    const { episode, sentAfter } = episodeSent(await sessionLog(folder, s));
    yield { episode: { ...episode, task_id: episode.id }, sentAfter };
    progress?.(++done, total);
  }
}

/** Episodes read whole (τ²-bench results): every call was sent before the next result. */
export function episodeSessions(episodes: readonly Episode[]): SentSession[] {
  return episodes.map((episode) => ({ episode, sentAfter: new Map() }));
}
