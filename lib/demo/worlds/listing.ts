/** How the shop lists its tools (`--hide`, `--hint`): a server that changed since. */
export interface Listing {
  /** Tools left out of `tools/list`; calls to them are refused as unknown. */
  hidden: string[];
  /** In order, later ones winning: list the tool as a write (`false`) or with no hint (`null`). */
  hints: Array<[tool: string, readOnlyHint: false | null]>;
}

export function emptyListing(): Listing {
  return { hidden: [], hints: [] };
}
