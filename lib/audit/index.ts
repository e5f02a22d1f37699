/** Scoring a flow against recorded sessions: the audit, its report, and the surprise gate's learning. */
export { auditFlow, SURPRISING, type Audit, type CalibrationBin, type EpisodeAudit, type SiteAudit } from "./audit.js";
export { auditedFlow, episodeDecisions, likeliest, OTHER, type AuditSettings, type PointResult, type ScoredDecision } from "./decisions.js";
export { auditMarkdown, deciderSentence } from "./markdown.js";
export { heldOutPeaks, learnGate } from "./learn-gate.js";
