/** Staged flows: the files beside a committed flow, its versions, commit, rollback, the log, and stage. */
export { StageError, StageRefusal, stagePaths, writeWhole, type StagePaths } from "./files.js";
export { changesBetween, flowCommit, flowRollback, historyOf } from "./commit.js";
export { flowLog, NOT_LATEST, recordMarkdown, when } from "./log.js";
export { readState, writeState, LEDGER_KEPT, STAGE_FORMAT, type Comparison, type Counts, type LedgerEntry, type StageState } from "./state.js";
export { readRecord, versionNumbers, type Evidence, type VersionRecord } from "./versions.js";
export { compare, stage, type StageResult, type StageSettings } from "./stage.js";
export { stageMarkdown, usedCell, usedShare } from "./report.js";
