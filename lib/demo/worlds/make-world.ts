import { echoWorld } from "./echo.js";
import type { Listing } from "./listing.js";
import { retailWorld } from "./retail.js";
import { telecomWorld } from "./telecom.js";
import type { World, WorldName } from "./world.js";

/** The world `--world` names; `--hide`/`--hint` shape only the shop's listing. */
export function makeWorld(name: WorldName, listing: Listing): World {
  if (name === "telecom") return telecomWorld();
  return name === "retail" ? retailWorld(listing) : echoWorld;
}
