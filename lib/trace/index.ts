/**
 * `stretto-proxy/trace`: read what stretto-proxy recorded. Logs → Episodes with inferred LLM
 * turns, tool manifests and contracts, and sessions merged across servers (docs/trace.md).
 */
export type { Json, JsonObject } from "./json.js";
export { jsonText, jsonEqual } from "./json.js";
export { LOG_VERSION, PEERS, entryJson, headerJson, toJsonl } from "./log-types.js";
export type { LogEntry, LogHeader, McpLog, Peer } from "./log-types.js";
export { logEntrySchema, logHeaderSchema } from "./log-schema.js";
export { LogFormatError, LogParser, parseLog, type LogSink } from "./log-parser.js";
export { LogReadError, forEachLine, isSessionLog, readLog, readSessions, sessionLogPaths, streamLog, streamLogSync } from "./read-log.js";
export { callId, entryMessages, idKey, messages, method, requestId, responseId, type TimedMessage } from "./messages.js";
export type { AssistantEvent, Episode, EpisodeEvent, ToolCall, ToolResultEvent, TurnUsage, UserEvent } from "./episode-types.js";
export { episodeSchema, isEpisode } from "./episode-schema.js";
export { afterCall, assistantTurns, succeeded, toolCalls, turnUsage } from "./episode-queries.js";
export { episode, episodeSent, readEpisode, readEpisodeSync } from "./episode.js";
export { CLIENT_INFO_META, EpisodeBuilder, SAME_TURN_MS } from "./turns.js";
export { scalars, usesNewValues } from "./new-values.js";
export { outcome, type Outcome } from "./outcome.js";
export { ManifestBuilder, collapse, isWrite, kindOf, manifest, manifestOf, readManifest } from "./manifest.js";
export type { ToolDoc, ToolKind, ToolManifest } from "./manifest.js";
export { isToolManifest, toolManifestSchema } from "./manifest-schema.js";
export { contract, contractsOf } from "./contract.js";
export { SERVER_SEPARATOR, qualifiedEntry, qualifiedLog, qualifiedMessage, qualify, qualifyEpisode, serverOf, unqualified } from "./qualify.js";
export { SERVER_INFO_META, ServerNameFinder, plainName, serverName } from "./server-name.js";
export { groupSessions, summarize, type LogSummary } from "./sessions.js";
export { fullScan, fullScanSync, scanLog, scanLogSync } from "./scan-log.js";
export { merge, mergedLog, planSessions, unanswered, type MergePlan, type SessionPlan, type Sessions } from "./merge.js";
export { folderEpisodes, folderManifest, planFolder, type Folder, type Progress } from "./folder.js";
export { listFolderLogs, type Listed, type SkipHandler, type SkippedLog } from "./folder-logs.js";
