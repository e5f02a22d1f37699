/**
 * Where a staged flow lives: beside the committed flow `NAME.flow.json`, the staged flow
 * `NAME.staged.flow.json`, its state `NAME.stage.json`, and the committed flow's versions
 * `NAME.history/N.flow.json` with their records `N.json` (from 1). Every file is written
 * whole or not at all: to a temporary file beside it, then renamed into place, so a reader
 * (a proxy starting with the flow, a person) never sees half of one.
 */
import { mkdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { osErrorText } from "../util/os-errors.js";
import { writeWhole as writeFileWhole } from "../util/write-whole.js";

/** Why stage, commit or rollback will not do what was asked (a refusal, not a failure of the machine). */
export class StageRefusal extends Error {
  override name = "StageRefusal";
}

/** A file that could not be read or written. */
export class StageError extends Error {
  override name = "StageError";
}

export interface StagePaths {
  committed: string;
  staged: string;
  state: string;
  history: string;
  /** `NAME`. */
  name: string;
}

const FLOW = ".flow.json";
const STAGED = ".staged.flow.json";

/** The files of the committed flow at `path`, which must be named `NAME.flow.json`. */
export function stagePaths(path: string): StagePaths {
  const file = basename(path);
  if (file.endsWith(STAGED)) {
    const name = file.slice(0, -STAGED.length);
    throw new StageRefusal(`${path} is a staged flow: name the committed one, ${name}${FLOW}`);
  }
  if (!file.endsWith(FLOW) || file.length === FLOW.length) throw new StageRefusal(`${path}: name the committed flow NAME.flow.json, as stretto init does`);
  const name = file.slice(0, -FLOW.length);
  const dir = dirname(path);
  return { committed: path, staged: join(dir, `${name}${STAGED}`), state: join(dir, `${name}.stage.json`), history: join(dir, `${name}.history`), name };
}

/** Writes `text` to `path` whole (a temporary file beside it, flushed, then renamed over it). */
export function writeWhole(path: string, text: string): void {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new StageError(`creating ${dir}: ${osErrorText(e)}`);
  }
  try {
    writeFileWhole(path, text);
  } catch (e) {
    throw new StageError(`writing ${path}: ${osErrorText(e)}`);
  }
}
