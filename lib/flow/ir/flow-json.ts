/**
 * The flow file as written (snake_case, pair lists), the shape `flow-schema.ts`
 * checks. Only `normalize-flow.ts` reads it; everything else reads `Flow`.
 */
type Pairs<K, V> = [K, V][];

export interface CountsJson {
  by_action: Pairs<number, number>;
  total: number;
}

export interface BackoffModelJson {
  order: number;
  alpha: number;
  vocab_size: number;
  levels: Pairs<number[], CountsJson>[];
}

export interface PredicateJson {
  id: string;
  favors: "same_lookup" | "any_lookup" | "hand_back" | { lookup: string };
  question: string;
  yes: string;
  no: string;
}

export interface SourceCountsJson {
  values: number;
  found: Pairs<[string, string], number>;
}

export interface FlowJson {
  stretto_flow: number;
  provenance: {
    stretto: string;
    sources: string[];
    habit_episodes: number;
    arbiter_cases: number;
    compiled_unix_ms: number;
    conventions?: string;
  };
  vocab: ("Respond" | { Tool: string })[];
  manifest: {
    domain: string;
    tools: Record<string, "read" | "write" | "generic">;
    docs?: Record<string, { summary: string; args: Record<string, string> }>;
  };
  map: {
    fields: Record<string, ({ Scalar: string } | { Len: string })[]>;
    ids: Pairs<[string, string[]], number>;
  };
  group: number;
  habit: { base: BackoffModelJson; beta: number; top: Pairs<[number, number[]], CountsJson> };
  sites: {
    reads: string[];
    next: Pairs<[string, boolean], Record<string, number>>;
    feeds: Record<string, Pairs<[string, string], number>>;
    every_read?: boolean;
  };
  predicates: PredicateJson[];
  weighed: PredicateJson[];
  folds: {
    weights: number[];
    rates: { sites: Pairs<string, [number, number, number]>; agree: number; cover: number };
  }[];
  bindings: {
    args: Record<string, [number, Record<string, number>]>;
    sources: Pairs<[string, string], SourceCountsJson>;
    agreed: Record<string, [[number, number], [number, number]]>;
    named_other?: Record<string, [number, number]>;
    described_read?: Record<string, [number, number]>;
    site_sources?: { tool: string; arg: string; site: string; source: [string, string]; values: number }[];
    lists?: Pairs<[string, string], SourceCountsJson>;
    bare?: Record<string, number>;
    constants?: Pairs<[string, string], unknown>;
  };
  model: string;
  program?: unknown;
  promoted?: {
    bar: { threshold: number; min_used: number; min_lower: number; min_tasks: number };
    sites: Record<
      string,
      { decisions: number; lookups: number; used: number; tasks: number; lower: number; promoted: boolean }
    >;
  };
  thresholds?: Record<string, number>;
  contracts?: Record<string, string>;
  reach?: BackoffModelJson;
  /** Format 2: the surprise gate (`learn --surprise`). */
  surprise?: { window: number; threshold: number; quantile?: number };
}
