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
import { FirstPass, type FirstPassDigest } from "./first-pass.js";
import type { EpisodeReading } from "./session-episode.js";
import { readOnThread } from "./read-thread.js";
import { readSessionRun } from "./session-reader.js";
import { joinRuns, runMessage, type ListedTools } from "./sessions-run.js";

export interface FolderSessions {
  episodes: EpisodeStore;
  /** The tools every session listed; a later session wins. */
  listed: ListedTools;
  /** Each listed tool's input contract; a later listing wins. */
  contracts: Map<string, string>;
  /** The learner's first pass, made while reading when `firstPass` was given (first-pass.ts), and how the episodes were read for it. */
  firstPass?: { reading: EpisodeReading; digest: FirstPassDigest } | undefined;
}

/** From this many sessions on, a second thread reads half of them (below, its start-up costs more than it saves). */
export const READ_THREAD_FROM = 4096;

export interface ReadOptions {
  /** Whether a second thread reads half of the sessions; by default from {@link READ_THREAD_FROM} sessions on. */
  thread?: boolean;
  /** Make the learner's first pass over the episodes as they are read, each read this way. */
  firstPass?: EpisodeReading | undefined;
}

/** Every session of a planned folder, in plan order (by header session). */
export async function readFolderSessions(folder: Folder, progress?: Progress, o: ReadOptions = {}): Promise<FolderSessions> {
  const { firstPass, ...read } = await readRuns(folder, progress, o);
  return { ...read, ...(o.firstPass === undefined || firstPass === undefined ? {} : { firstPass: { reading: o.firstPass, digest: firstPass } }) };
}

async function readRuns(folder: Folder, progress: Progress | undefined, o: ReadOptions) {
  const plans = folder.plan.sessions;
  const total = plans.length;
  // The second thread's share starts on a whole block of the store, so its blocks append as they are.
  const half = Math.floor(total / 2 / BLOCK_EPISODES) * BLOCK_EPISODES;
  const split = (o.thread ?? total >= READ_THREAD_FROM) && half > 0 ? half : total;
  let mine = 0;
  let theirs = 0;
  const tell = (): void => progress?.(mine + theirs, total);
  const other = split < total ? readOnThread(folder.paths, plans.slice(split), (n) => ((theirs = n), tell()), o.firstPass) : undefined;
  const firstPass = (): FirstPass | undefined => (o.firstPass === undefined ? undefined : new FirstPass(o.firstPass));
  const mineFirst = firstPass();
  let first;
  try {
    first = { ...(await readSessionRun(folder.paths, plans.slice(0, split), () => (mine++, tell()), mineFirst && ((ep) => mineFirst.add(ep)))), firstPass: mineFirst?.digest() };
  } catch (e) {
    other?.stop();
    throw e;
  }
  if (other === undefined) return first;
  // A thread that gave nothing leaves its sessions to be read here (and their error, if any, told as this thread's).
  let rest = await other.run;
  if (rest === undefined) {
    const theirFirst = firstPass();
    rest = runMessage(await readSessionRun(folder.paths, plans.slice(split), undefined, theirFirst && ((ep) => theirFirst.add(ep))), theirFirst?.digest());
  }
  theirs = total - split;
  tell();
  return joinRuns(first, rest);
}
