/**
 * Episodes read whole (τ²-bench results, OpenTelemetry spans) as the learner reads a folder's
 * sessions: they list no tools and pin no contracts, so the manifest is given (`--manifest`,
 * `--tau2`).
 */
import { EpisodeStore, type FolderSessions } from "../../learn/index.js";
import { ManifestBuilder } from "../../trace/index.js";
import type { Episode } from "../../trace/episode-types.js";

export function wholeSessions(episodes: Iterable<Episode>): FolderSessions {
  const store = new EpisodeStore();
  for (const ep of episodes) store.add(ep);
  return { episodes: store, listed: new ManifestBuilder(), contracts: new Map() };
}
