import type { Json, JsonObject } from "./json.js";

/** The one format version this build reads. */
export const PROCEDURE_FORMAT = 1;

/** A question: go to `yes` when the run's feature set holds `feature` exactly, else `no`. */
export interface Split {
  feature: string;
  yes: Node;
  no: Node;
}

/**
 * A leaf: the actions to try, in file order (most frequent first, as exported), each with
 * its training count, which the run never reads.
 */
export interface Leaf {
  calls: Array<[action: string, count: number]>;
}

export type Node = Split | Leaf;

export function isSplit(node: Node): node is Split {
  return "feature" in node;
}

/** An outcome a ticket may state, and how to check it: call `probe` with no arguments. */
export interface Check {
  phrase: string;
  probe: string;
  contains: string[];
  lacks: string[];
}

/** A compiled procedure (`stretto_procedure: 1`): one decision tree per site. */
export interface Procedure {
  stretto_procedure: number;
  domain: string;
  /** Where it came from; never read by the run. */
  provenance: Json;
  /** Arguments written as `@…` symbols are bound at run time; otherwise passed literally. */
  symbolic: boolean;
  /** The most tool calls a run makes; the final check's probe is not counted. */
  max_calls: number;
  /** The action that ends a run. */
  stop: string;
  /** The tool that hands the customer to a person; calling it ends the run. */
  handoff: string;
  /** The hand-off's arguments when its action gives none. */
  handoff_arguments: JsonObject;
  /** The read-only tools; every other tool is a write to the repeat guard. */
  reads: Set<string>;
  /** The ticket words and word pairs the trees may ask about. */
  vocab: Set<string>;
  /** Site (`start`, a tool, or `TOOL!` after it failed) → its tree, in file order. */
  trees: Map<string, Node>;
  /** The tree of a site that has none. */
  fallback: Node;
  checks: Check[];
}
