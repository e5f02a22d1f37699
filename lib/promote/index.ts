/** Promotion: scoring a flow as served against sessions, and the sites it earns. */
export { WILSON_Z, wilsonLower } from "./wilson.js";
export { emptyScoring, siteTally, type Scoring, type SiteTally } from "./tally.js";
export { agentCopy, type AgentCopy } from "./agent-copy.js";
export { scoreSession, type ScoreSettings, type SentSession } from "./score.js";
export { DEFAULT_BAR, MAX_ROUNDS, promoteServed, promotedSites, promotionOf, scoreAll, siteRecord, type Promoted, type Sessions } from "./promotion.js";
export { episodeSessions, folderSessions } from "./sessions.js";
