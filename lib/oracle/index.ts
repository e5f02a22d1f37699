export {
  DEFAULT_MODEL,
  OracleError,
  defaultModel,
  noul,
  parseResponse,
  type Answer,
  type ChoiceAnswer,
  type ChoiceQuestion,
  type JsonValue,
  type NoulAnswer,
  type NoulQuestion,
  type Oracle,
  type OracleKind,
  type OracleRequest,
  type OracleResponse,
  type Question,
  type ScoreAnswer,
  type ScoreQuestion,
  type Usage,
} from "./oracle.js";
export { AnswerCache, isRequestKey, requestKey } from "./cache.js";
export { CachedOracle, replayOracle } from "./replay.js";
export { MOCK_DEFAULTS, MockOracle, type MockSettings } from "./mock.js";
export { resolveApiKey, type ApiKey, type ReadText } from "./api-key.js";
export {
  DEFAULT_BASE_URL,
  JEV_BACKOFF_MS,
  JEV_TIMEOUT_MS,
  JevClient,
  jevBaseUrl,
  realSleep,
  statusText,
  type JevOptions,
  type Sleep,
} from "./jev.js";
export {
  DEFAULT_ORACLE_CACHE,
  ORACLE_KINDS,
  isOracleKind,
  makeOracle,
  type MadeOracle,
  type OracleDeps,
  type OracleSettings,
} from "./make-oracle.js";
