/**
 * A session's episode as the learner reads it: the flow's domain, its reward (1 unless the
 * rewards name it), only the agent's own calls when asked. Its own module so that the
 * bindings' thread reads the stored sessions exactly as the main thread does.
 */
import type { Episode } from "../trace/index.js";
import { agentOnly } from "./agent-only.js";

/** What decides how a stored session is read; each field can be sent to another thread. */
export interface EpisodeReading {
  domain: string;
  /** Session id → reward; a session not named has reward 1. */
  rewards?: ReadonlyMap<string, number> | undefined;
  /** Learn from the agent's own calls only (`--agent-only`). */
  agentOnly: boolean;
}

export function sessionEpisode(ep: Episode, o: EpisodeReading): Episode {
  return { ...(o.agentOnly ? agentOnly(ep) : ep), domain: o.domain, reward: o.rewards?.get(ep.id) ?? 1 };
}
