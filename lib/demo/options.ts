import type { Listing } from "./worlds/listing.js";
import type { WorldName } from "./worlds/world.js";

/** What stretto-mcp-demo serves, as its command line asked for it. */
export interface DemoOptions {
  world: WorldName;
  listing: Listing;
  /** `--http ADDR`: serve Streamable HTTP on ADDR instead of stdio. */
  http?: string;
  /** `--require-auth VALUE`: the exact `Authorization` header every HTTP request needs. */
  requireAuth?: string;
}
