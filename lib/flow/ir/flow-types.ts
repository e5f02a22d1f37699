/**
 * The flow IR in memory (docs/flows.md, "Flow files"): what `*.flow.json` holds, versions 1 and 2
 * read into one shape. Pair-list maps become `PairMap`s, string-keyed objects become
 * `Map`s, and optional fields get their defaults, so a reader never asks which version
 * or spelling a file used. Field names are the file's, in camelCase; each says the JSON
 * name where it differs.
 */
import type { Program } from "../program/program-types.js";
import type { PairMap } from "./pair-map.js";

/** The format versions this build reads. */
export const FLOW_VERSIONS = [1, 2] as const;
export type FlowVersion = (typeof FLOW_VERSIONS)[number];

export interface Provenance {
  stretto: string;
  sources: string[];
  habitEpisodes: number;
  arbiterCases: number;
  compiledUnixMs: number;
  /** Set only for flows learned with `learn --otel`. */
  conventions?: string;
}

/** One entry of `vocab`: `"Respond"` or `{"Tool": name}`. An action's id is its index. */
export type VocabAction = { kind: "respond" } | { kind: "tool"; tool: string };

export type ToolKind = "read" | "write" | "generic";

export interface ToolDoc {
  summary: string;
  args: Map<string, string>;
}

export interface FlowManifest {
  domain: string;
  /** Tool → kind, in the file's order (sorted by name). */
  tools: Map<string, ToolKind>;
  docs: Map<string, ToolDoc>;
}

/** A code feature read from a tool's output: a scalar at a path, or an array's length. */
export type CodeField = { kind: "scalar"; path: string } | { kind: "len"; path: string };

export interface FeatureMap {
  fields: Map<string, CodeField[]>;
  /** `[tool, value strings]` → feature id (1..63 per tool; 0 means no feature). */
  ids: PairMap<[string, string[]], number>;
}

/** What followed one context: counts by action id, and their total. */
export interface Counts {
  /** JSON `by_action`. */
  byAction: Map<number, number>;
  total: number;
}

/** A back-off n-gram model over symbols (`habit.base`, `reach`). */
export interface BackoffModel {
  order: number;
  alpha: number;
  /** JSON `vocab_size`. */
  vocabSize: number;
  /** Level `j` is keyed by contexts of `j` symbols; level 0 has the one context `[]`. */
  levels: PairMap<number[], Counts>[];
}

/** The habit: a back-off base with a group layer on top. */
export interface GroupedModel {
  base: BackoffModel;
  beta: number;
  /** `[group, context symbols]` → counts. */
  top: PairMap<[number, number[]], Counts>;
}

export interface Sites {
  /** The read tools, sorted. */
  reads: string[];
  /** `[tool, failed]` → lookup → how often it came next in training. */
  next: PairMap<[string, boolean], Map<string, number>>;
  /** lookup → `[write, arg]` → count. */
  feeds: Map<string, PairMap<[string, string], number>>;
  /** JSON `every_read` (written only when true): every read is offered at every site. */
  everyRead: boolean;
}

export type Favors = "same_lookup" | "any_lookup" | "hand_back" | { lookup: string };

export interface Predicate {
  id: string;
  favors: Favors;
  question: string;
  yes: string;
  no: string;
}

/** Per site: `[decisions, agreed, covered]`. */
export type SiteRate = [number, number, number];

export interface Fitted {
  weights: number[];
  rates: { sites: PairMap<string, SiteRate>; agree: number; cover: number };
}

/** A lookup's training calls, and how many passed each argument (JSON `[calls, {arg: n}]`). */
export interface ArgCounts {
  calls: number;
  passed: Map<string, number>;
}

/** Where an argument's string values came from: `[source tool, JSON path]` → count. */
export interface SourceCounts {
  values: number;
  found: PairMap<[string, string], number>;
}

/** `[agreed, calls]`. */
export type AgreedCount = [number, number];
/** `[used, picks]`. */
export type UsedCount = [number, number];

export interface SiteSource {
  tool: string;
  arg: string;
  site: string;
  source: [string, string];
  values: number;
}

export interface Bindings {
  args: Map<string, ArgCounts>;
  sources: PairMap<[string, string], SourceCounts>;
  /** Index 0: the pick was not mentioned by the customer; index 1: it was. */
  agreed: Map<string, [AgreedCount, AgreedCount]>;
  /** Version 2 (empty when absent). JSON `named_other`. */
  namedOther: Map<string, UsedCount>;
  /** Version 2. JSON `described_read`. */
  describedRead: Map<string, UsedCount>;
  /** Version 2. JSON `site_sources`. */
  siteSources: SiteSource[];
  /** Version 2: arguments that are lists of strings. */
  lists: PairMap<[string, string], SourceCounts>;
  /** Version 2: tool → calls made with no arguments. */
  bare: Map<string, number>;
  /** Version 2 (newest build): `[tool, arg]` → the value always passed. */
  constants: PairMap<[string, string], unknown>;
}

export interface PromotionBar {
  threshold: number;
  /** JSON `min_used`. */
  minUsed: number;
  minLower: number;
  minTasks: number;
}

export interface SiteRecord {
  decisions: number;
  lookups: number;
  used: number;
  tasks: number;
  lower: number;
  promoted: boolean;
}

export interface Promotion {
  bar: PromotionBar;
  sites: Map<string, SiteRecord>;
}

/**
 * The surprise gate (`learn --surprise`): the flow hands back for the rest of a session once
 * `window` of the agent's steps in a row average more than `threshold` nats of surprise.
 */
export interface SurpriseGate {
  window: number;
  threshold: number;
  /** The quantile of held-out training sessions' most surprising windows it was set at. */
  quantile?: number;
}

export interface Flow {
  /** JSON `stretto_flow`. */
  version: FlowVersion;
  provenance: Provenance;
  vocab: VocabAction[];
  manifest: FlowManifest;
  map: FeatureMap;
  group: number;
  habit: GroupedModel;
  sites: Sites;
  predicates: Predicate[];
  weighed: Predicate[];
  /** The arbiter, one fit per fold; empty means no arbiter. */
  folds: Fitted[];
  bindings: Bindings;
  /** The System-One model id; `""` without an arbiter. */
  model: string;
  /** The run program: the file's, or the standard one when the file has none. */
  program: Program;
  /** Whether the file held its own `program`. */
  programGiven: boolean;
  promoted?: Promotion;
  /** Per-site thresholds (empty when absent); above 1 switches a site off. */
  thresholds: Map<string, number>;
  /** Tool → its input contract when learned (empty when absent). */
  contracts: Map<string, string>;
  /** What came before the next write, for the reach decider. */
  reach?: BackoffModel;
  /** Format 2: the surprise gate, when the flow has one. */
  surprise?: SurpriseGate;
}
