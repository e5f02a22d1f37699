/**
 * `stretto flow-commit` and `stretto flow-rollback`: the staged flow (or an earlier version)
 * becomes the committed flow, and each committed flow is kept as a version with a record of
 * what it was. A committed flow changed by other means (edited by hand, learned over) is kept
 * first, as a version `found` in place, so nothing committed is ever lost.
 */
import { existsSync } from "node:fs";
import { diffFlows } from "../review/index.js";
import { StageRefusal, stagePaths, writeWhole, type StagePaths } from "./files.js";
import { readState, type Comparison, type Counts } from "./state.js";
import { flowOf, readRecord, readText, versionFlowPath, versionNumbers, writeVersion, type Evidence, type VersionRecord } from "./versions.js";

/** The tolerance and threshold a version's changes are listed at, as `stretto flow-diff` lists them by default. */
const DIFF = { tolerance: 0.05, threshold: 0.3 };

/** The changes from one flow's text to another's, each as `flow-diff` words it. */
export function changesBetween(oldText: string, newText: string, oldPath: string, newPath: string): string[] {
  const diff = diffFlows(flowOf(oldPath, oldText), flowOf(newPath, newText), DIFF);
  return diff.sections.flatMap((s) => s.changes.map((c) => `${s.title}: ${c}`));
}

interface History {
  paths: StagePaths;
  numbers: number[];
  latest: number;
  /** The committed file's text, if there is one. */
  committed: string | undefined;
  /** Whether the committed file is not the latest version (or there is none yet). */
  changedByOther: boolean;
}

export function historyOf(path: string): History {
  const paths = stagePaths(path);
  const numbers = versionNumbers(paths);
  const latest = numbers[numbers.length - 1] ?? 0;
  const committed = existsSync(paths.committed) ? readText(paths.committed) : undefined;
  const changedByOther = committed !== undefined && (latest === 0 || readText(versionFlowPath(paths, latest)) !== committed);
  return { paths, numbers, latest, committed, changedByOther };
}

/** Keeps a committed flow changed by other means as a `found` version; the next version's number. */
function keepFound(h: History, nowMs: number): number {
  if (!h.changedByOther || h.committed === undefined) return h.latest + 1;
  const version = h.latest + 1;
  const record: VersionRecord = { version, kind: "found", unix_ms: nowMs };
  if (h.latest > 0) {
    const prev = versionFlowPath(h.paths, h.latest);
    record.changes = changesBetween(readText(prev), h.committed, prev, h.paths.committed);
  }
  writeVersion(h.paths, h.committed, record);
  return version + 1;
}

/** What the last comparison says of each flow's lookups, for the commit's record. */
function evidenceOf(c: Comparison): Evidence {
  const side = (x: Counts) => ({ lookups: x.lookups, used: x.used, detours: x.lookups - x.used - x.served });
  return { sessions: c.compared, staged: side(c.total.staged), ...(c.total.committed === undefined ? {} : { committed: side(c.total.committed) }) };
}

/** Commits the staged flow; its record. */
export function flowCommit(path: string, note: string | undefined, nowMs: number): VersionRecord {
  const h = historyOf(path);
  const { paths } = h;
  if (!existsSync(paths.staged)) throw new StageRefusal(`there is no staged flow at ${paths.staged}: stretto stage learns it`);
  const stagedText = readText(paths.staged);
  const staged = flowOf(paths.staged, stagedText);
  if (h.committed !== undefined) {
    const committed = flowOf(paths.committed, h.committed);
    if (committed.manifest.domain !== staged.manifest.domain) {
      throw new StageRefusal(`the staged flow is for ${staged.manifest.domain}, the committed one for ${committed.manifest.domain}`);
    }
    if (h.committed === stagedText) throw new StageRefusal("the staged flow is the committed one: nothing to commit");
  }
  const version = keepFound(h, nowMs);
  const record: VersionRecord = { version, kind: "commit", unix_ms: nowMs };
  if (note !== undefined) record.note = note;
  if (h.committed !== undefined) record.changes = changesBetween(h.committed, stagedText, paths.committed, paths.staged);
  const last = existsSync(paths.state) ? readState(paths.state, staged.manifest.domain).last : undefined;
  if (last !== undefined && last.learned_unix_ms === staged.provenance.compiledUnixMs && last.compared > 0) record.evidence = evidenceOf(last);
  writeVersion(paths, stagedText, record);
  writeWhole(paths.committed, stagedText);
  return record;
}

/** Rolls the committed flow back to version `to` (default: the latest, if the file changed since, else the one before); its record. */
export function flowRollback(path: string, to: number | undefined, note: string | undefined, nowMs: number): VersionRecord {
  const h = historyOf(path);
  const { paths } = h;
  if (h.committed === undefined) throw new StageRefusal(`there is no committed flow at ${paths.committed}`);
  const target = to ?? (h.changedByOther ? h.latest : h.latest - 1);
  if (h.latest === 0 || (to === undefined && target < 1)) throw new StageRefusal(`${paths.committed} has no earlier version to roll back to`);
  if (!h.numbers.includes(target)) throw new StageRefusal(`there is no version ${target}: ${paths.committed} has versions 1 to ${h.latest}`);
  const restoredText = readText(versionFlowPath(paths, target));
  if (restoredText === h.committed) throw new StageRefusal(`version ${target} is the committed flow already`);
  const version = keepFound(h, nowMs);
  const record: VersionRecord = { version, kind: "rollback", unix_ms: nowMs, restored: target };
  if (note !== undefined) record.note = note;
  record.changes = changesBetween(h.committed, restoredText, paths.committed, versionFlowPath(paths, target));
  writeVersion(paths, restoredText, record);
  writeWhole(paths.committed, restoredText);
  return record;
}

export { readRecord };
