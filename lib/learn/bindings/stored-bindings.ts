/**
 * What the bindings' thread is sent, and the successful episodes of a store as the main
 * thread reads them (`sessionEpisode`): the thread counts and scores the same episodes in
 * the same order as the learner's own passes would, so the bindings are the same.
 */
import type { Episode } from "../../trace/index.js";
import type { ToolKind } from "../../flow/ir/index.js";
import type { Episodes, PackedEpisodes } from "../episode-store.js";
import { sessionEpisode, type EpisodeReading } from "../session-episode.js";
import { isSuccess } from "../training-set.js";

/** What the bindings' thread is sent. */
export interface BindingsJob {
  packed: PackedEpisodes;
  reading: EpisodeReading;
  kinds: ReadonlyMap<string, ToolKind>;
  constants: boolean;
  /** The block counter the thread and the main thread share the scoring by (shared-scoring.ts). */
  counter: Int32Array;
}

/** The successful sessions of `stored`, as the learner reads them, at each pass over it. */
export function successfulSessions(stored: Episodes, reading: EpisodeReading): Iterable<Episode> {
  return {
    *[Symbol.iterator]() {
      for (const raw of stored) {
        const ep = sessionEpisode(raw, reading);
        if (isSuccess(ep)) yield ep;
      }
    },
  };
}
