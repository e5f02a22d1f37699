/**
 * Pseudonymized copies of recorded sessions (`stretto redact`): a value fewer than
 * `keepShared` sessions share, or one a named field holds, is replaced by a salted hash,
 * the same wherever it appears, so a flow learned from the copy is the one learned from
 * the recorded logs. See docs/redact.md.
 */
export { Census } from "./census.js";
export { EntryWalk } from "./entry-walk.js";
export { sessionFileName } from "./file-name.js";
export { headerLine } from "./header-line.js";
export { KEEP_SHARED, type RedactOptions } from "./options.js";
export { Pseudonyms } from "./pseudonyms.js";
export { newCensus, redactLogs, rewriter } from "./redact-logs.js";
export { SharedSessionId, redactFolder, type LogToRedact, type RedactProgress } from "./redact-folder.js";
export { normalize } from "./text.js";
