/**
 * What the learner reads from a folder of session logs: each session's episode, the tools
 * its servers listed and their contracts, in plan order (session-reader.ts). Each episode
 * goes into an {@link EpisodeStore}, compressed with the others, so memory holds neither
 * the logs nor the episodes as objects.
 *
 * Many sessions are read by two threads at once: this one reads the first half of the
 * plan, a second thread the rest (read-thread.ts), and the halves are joined in order, so
 * what is read is what one thread reading every session in turn would have read.
 */
import type { Folder, Progress } from "../trace/index.js";
import { BLOCK_EPISODES, type EpisodeStore } from "./episode-store.js";
import { readOnThread } from "./read-thread.js";
import { readSessionRun } from "./session-reader.js";
import { joinRuns, runMessage, type ListedTools } from "./sessions-run.js";

export interface FolderSessions {
  episodes: EpisodeStore;
  /** The tools every session listed; a later session wins. */
  listed: ListedTools;
  /** Each listed tool's input contract; a later listing wins. */
  contracts: Map<string, string>;
}

/** From this many sessions on, a second thread reads half of them (below, its start-up costs more than it saves). */
export const READ_THREAD_FROM = 256;

export interface ReadOptions {
  /** Whether a second thread reads half of the sessions; by default from {@link READ_THREAD_FROM} sessions on. */
  thread?: boolean;
}

/** Every session of a planned folder, in plan order (by header session). */
export async function readFolderSessions(folder: Folder, progress?: Progress, o: ReadOptions = {}): Promise<FolderSessions> {
  const plans = folder.plan.sessions;
  const total = plans.length;
  // The second thread's share starts on a whole block of the store, so its blocks append as they are.
  const half = Math.floor(total / 2 / BLOCK_EPISODES) * BLOCK_EPISODES;
  const split = (o.thread ?? total >= READ_THREAD_FROM) && half > 0 ? half : total;
  let mine = 0;
  let theirs = 0;
  const tell = (): void => progress?.(mine + theirs, total);
  const other = split < total ? readOnThread(folder.paths, plans.slice(split), (n) => ((theirs = n), tell())) : undefined;
  let first;
  try {
    first = await readSessionRun(folder.paths, plans.slice(0, split), () => (mine++, tell()));
  } catch (e) {
    other?.stop();
    throw e;
  }
  if (other === undefined) return first;
  // A thread that gave nothing leaves its sessions to be read here (and their error, if any, told as this thread's).
  const rest = (await other.run) ?? runMessage(await readSessionRun(folder.paths, plans.slice(split)));
  theirs = total - split;
  tell();
  return joinRuns(first, rest);
}
