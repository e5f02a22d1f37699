/** Every `stretto` subcommand, in the order help lists them. A new one is a file and a line here. */
import type { Command } from "./command.js";
import { episodeCommand } from "./episode.js";
import { episodesCommand } from "./episodes.js";
import { flowDiffCommand } from "./flow-diff.js";
import { flowShowCommand } from "./flow-show.js";
import { guardsCommand } from "./guards.js";
import { manifestCommand } from "./manifest.js";
import { replayCommand } from "./replay.js";

export const COMMANDS: readonly Command[] = [episodeCommand, episodesCommand, manifestCommand, replayCommand, guardsCommand, flowShowCommand, flowDiffCommand];
