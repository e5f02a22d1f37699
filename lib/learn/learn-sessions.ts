/**
 * A flow from a folder's sessions as `stretto learn` reads them: each episode given the
 * flow's domain and its reward (1 unless the rewards name it), the proxy's own lookups
 * left out when only the agent's calls should count, and the servers' listing as the
 * manifest unless one is given.
 */
import type { ToolManifest } from "../trace/index.js";
import type { Flow, ToolKind } from "../flow/ir/index.js";
import { learnFlow, learnFlowBeside, type LearnInput } from "./learn-flow.js";
import type { FolderSessions } from "./read-sessions.js";
import { mapEpisodes } from "./episode-store.js";
import { sessionEpisode, type EpisodeReading } from "./session-episode.js";
import { bindingsOnThread } from "./bindings/bindings-thread.js";

export interface SessionsOptions {
  domain: string;
  /** Session id → reward; a session not named has reward 1. */
  rewards?: ReadonlyMap<string, number>;
  /** Learn from the agent's own calls only (`--agent-only`). */
  agentOnly: boolean;
  /** `--manifest`: used in place of the servers' listing (its domain becomes `domain`). */
  manifest?: ToolManifest;
  constants: boolean;
  halfLife?: number;
  version: string;
  nowMs: number;
  /**
   * Whether `learnFromSessionsThreaded` learns the bindings on a second thread; by default
   * from {@link BINDINGS_THREAD_FROM} sessions on (below that a thread costs more than it saves).
   */
  bindingsThread?: boolean;
}

/** From this many sessions on, the bindings are learned on a second thread by default. */
export const BINDINGS_THREAD_FROM = 200;

/**
 * The flow of a folder's sessions, read in passes from the compressed store: no pass holds
 * more than one block of episodes, however many sessions there are.
 */
export function learnFromSessions(read: FolderSessions, o: SessionsOptions): Flow {
  return learnFlow({ ...settings(read, o), episodes: mapEpisodes(read.episodes, (ep) => sessionEpisode(ep, o)) });
}

/**
 * As {@link learnFromSessions}, with the bindings learned on a second thread meanwhile
 * (bindings-thread.ts): the same flow, in less time where a second core is free.
 */
export async function learnFromSessionsThreaded(read: FolderSessions, o: SessionsOptions): Promise<Flow> {
  if (!(o.bindingsThread ?? read.episodes.length >= BINDINGS_THREAD_FROM)) return learnFromSessions(read, o);
  const reading: EpisodeReading = { domain: o.domain, rewards: o.rewards, agentOnly: o.agentOnly };
  const input = settings(read, o);
  const kinds = new Map(Object.entries(input.manifest.tools)) as Map<string, ToolKind>;
  const job = bindingsOnThread({ packed: read.episodes.packed(), reading, kinds, constants: o.constants }, read.episodes);
  // The first pass made while reading counts only if the episodes were read as they are here.
  const made = read.firstPass;
  const firstPass = made !== undefined && sameReading(made.reading, reading) ? made.digest : undefined;
  try {
    return await learnFlowBeside({ ...input, episodes: mapEpisodes(read.episodes, (ep) => sessionEpisode(ep, reading)), firstPass }, job.bindings);
  } catch (e) {
    job.stop();
    throw e;
  }
}

/** What the learner reads of a folder's sessions, given the options (every episode in memory). */
export function learnInput(read: FolderSessions, o: SessionsOptions): LearnInput {
  return { ...settings(read, o), episodes: read.episodes.map((ep) => sessionEpisode(ep, o)) };
}

function sameReading(a: EpisodeReading, b: EpisodeReading): boolean {
  return a.domain === b.domain && a.agentOnly === b.agentOnly && a.rewards === b.rewards;
}

/** Everything but the episodes. */
function settings(read: FolderSessions, o: SessionsOptions): Omit<LearnInput, "episodes"> {
  const manifest = o.manifest === undefined ? read.listed.finish(o.domain) : { ...o.manifest, domain: o.domain };
  return {
    manifest,
    contracts: read.contracts,
    constants: o.constants,
    ...(o.halfLife === undefined ? {} : { halfLife: o.halfLife }),
    version: o.version,
    nowMs: o.nowMs,
  };
}
