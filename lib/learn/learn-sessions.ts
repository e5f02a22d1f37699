/**
 * A flow from a folder's sessions as `stretto learn` reads them: each episode given the
 * flow's domain and its reward (1 unless the rewards name it), the proxy's own lookups
 * left out when only the agent's calls should count, and the servers' listing as the
 * manifest unless one is given.
 */
import type { ToolManifest } from "../trace/index.js";
import type { Flow } from "../flow/ir/index.js";
import { agentOnly } from "./agent-only.js";
import { learnFlow, type LearnInput } from "./learn-flow.js";
import type { FolderSessions } from "./read-sessions.js";

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

export function learnFromSessions(read: FolderSessions, o: SessionsOptions): Flow {
  return learnFlow(learnInput(read, o));
}

/** What the learner reads of a folder's sessions, given the options. */
export function learnInput(read: FolderSessions, o: SessionsOptions): LearnInput {
  const episodes = read.episodes.map((ep) => ({
    ...(o.agentOnly ? agentOnly(ep) : ep),
    domain: o.domain,
    reward: o.rewards?.get(ep.id) ?? 1,
  }));
  const manifest = o.manifest === undefined ? read.listed.finish(o.domain) : { ...o.manifest, domain: o.domain };
  return {
    episodes,
    manifest,
    contracts: read.contracts,
    constants: o.constants,
    ...(o.halfLife === undefined ? {} : { halfLife: o.halfLife }),
    version: o.version,
    nowMs: o.nowMs,
  };
}
