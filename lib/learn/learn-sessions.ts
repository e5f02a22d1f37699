/**
 * A flow from a folder's sessions as `stretto learn` reads them: each episode given the
 * flow's domain and its reward (1 unless the rewards name it), the proxy's own lookups
 * left out when only the agent's calls should count, and the servers' listing as the
 * manifest unless one is given.
 */
import type { Episode, ToolManifest } from "../trace/index.js";
import type { Flow } from "../flow/ir/index.js";
import { agentOnly } from "./agent-only.js";
import { learnFlow, type LearnInput } from "./learn-flow.js";
import type { FolderSessions } from "./read-sessions.js";
import { mapEpisodes } from "./episode-store.js";

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
}

/**
 * The flow of a folder's sessions, read in passes from the compressed store: no pass holds
 * more than one block of episodes, however many sessions there are.
 */
export function learnFromSessions(read: FolderSessions, o: SessionsOptions): Flow {
  return learnFlow({ ...settings(read, o), episodes: mapEpisodes(read.episodes, (ep) => sessionEpisode(ep, o)) });
}

/** What the learner reads of a folder's sessions, given the options (every episode in memory). */
export function learnInput(read: FolderSessions, o: SessionsOptions): LearnInput {
  return { ...settings(read, o), episodes: read.episodes.map((ep) => sessionEpisode(ep, o)) };
}

/** A session's episode as the learner reads it: the flow's domain, its reward, only the agent's calls if asked. */
function sessionEpisode(ep: Episode, o: SessionsOptions): Episode {
  return { ...(o.agentOnly ? agentOnly(ep) : ep), domain: o.domain, reward: o.rewards?.get(ep.id) ?? 1 };
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
