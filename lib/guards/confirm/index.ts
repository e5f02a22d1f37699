/**
 * The confirmation judge (docs/confirm-judge.md): the questions, the request and its cache
 * key, the exchange it is asked about, the model-free proposal check, and the judge itself.
 */
export { CONFIRMED, QUESTIONS, SECOND_QUESTIONS, type QuestionId, type SecondQuestion } from "./questions.js";
export { exchangeOf, type Exchange } from "./exchange.js";
export { confirmRequest, firstChars, lastChars, CUSTOMER_CHARS, PROPOSAL_CHARS, type JudgedCall } from "./request.js";
export { addRecordLists, proposalCheck, proposalCheckOn, recordLists, scalars, stated, type Flagged, type RecordOf } from "./proposal-check.js";
export { SeenSoFar, type SeenBefore } from "./seen-so-far.js";
export {
  BUDGET_SPENT,
  ConfirmJudge,
  DEFAULT_QUESTIONS,
  DEFAULT_THRESHOLD,
  JUDGE_MODES,
  judgeRefusalReason,
  type ConfirmLine,
  type JudgeMode,
  type JudgeSettings,
  type Judgment,
} from "./judge.js";
export { ConfirmCollector, askAll, confirmAudits, type Answers, type ConfirmAudit, type GroupCounts, type JudgedWrite } from "./audit.js";
export { CONFIRM_TITLE, confirmJson, confirmMarkdown, type ReportSettings } from "./report.js";
