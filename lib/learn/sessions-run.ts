/**
 * A run of sessions read on another thread, as a message, and the folder's sessions put
 * back together from runs read one after the other: the episodes appended to the store
 * in order, the listed tools with a later run's winning (as a later session's do), the
 * contracts set in the later run's order (as they were set one session after another).
 */
import type { ManifestBuilder, ToolDoc, ToolKind, ToolManifest } from "../trace/index.js";
import { compareCodePoints } from "../trace/json.js";
import type { EpisodeStore, PackedEpisodes } from "./episode-store.js";
import { joinDigests, type FirstPassDigest } from "./first-pass.js";
import type { SessionsRead } from "./session-reader.js";

export interface RunMessage {
  packed: PackedEpisodes;
  /** The run's listed tools and docs (each tool's latest), as entries. */
  tools: [string, ToolKind][];
  docs: [string, ToolDoc][];
  /** The run's contracts in the order its map holds them. */
  contracts: [string, string][];
  /** The learner's first pass over the run's episodes, when it was asked for. */
  firstPass?: FirstPassDigest | undefined;
}

export function runMessage(run: SessionsRead, firstPass?: FirstPassDigest): RunMessage {
  const m = run.listed.finish("");
  return { packed: run.episodes.packed(), tools: Object.entries(m.tools), docs: Object.entries(m.docs), contracts: [...run.contracts], firstPass };
}

/** What the learner finishes into a manifest: one builder's tools, or several runs' (`ListedRuns`). */
export type ListedTools = Pick<ManifestBuilder, "finish">;

/** The tools a first run listed (its builder), then a later run's, which win. */
class ListedRuns implements ListedTools {
  constructor(
    private readonly first: ListedTools,
    private readonly later: Pick<RunMessage, "tools" | "docs">,
  ) {}

  finish(domain: string): ToolManifest {
    const m = this.first.finish(domain);
    return { domain, tools: laterWins(Object.entries(m.tools), this.later.tools), docs: laterWins(Object.entries(m.docs), this.later.docs) };
  }
}

/** One record of both lists, the later's value for a key in both, in code point order (as a builder finishes). */
function laterWins<V>(earlier: [string, V][], later: [string, V][]): Record<string, V> {
  const all = new Map([...earlier, ...later]);
  const out: Record<string, V> = {};
  for (const k of [...all.keys()].sort(compareCodePoints)) {
    Object.defineProperty(out, k, { value: all.get(k), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** `first` followed by `later`, whose episodes are appended to `first`'s store (first passes joined when both made one). */
export function joinRuns(
  first: { episodes: EpisodeStore; listed: ListedTools; contracts: Map<string, string>; firstPass?: FirstPassDigest | undefined },
  later: RunMessage,
) {
  first.episodes.append(later.packed);
  for (const [tool, c] of later.contracts) first.contracts.set(tool, c);
  const firstPass = first.firstPass !== undefined && later.firstPass !== undefined ? joinDigests(first.firstPass, later.firstPass) : undefined;
  return { episodes: first.episodes, listed: new ListedRuns(first.listed, later), contracts: first.contracts, firstPass };
}
