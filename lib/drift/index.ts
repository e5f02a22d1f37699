/** Watching a served flow for a change in the agent: series per session, change-point detection, the report. */
export { drift, detect, moved, type Alarm, type Drift, type DriftSession, type DriftSettings, type MovedSite, type SiteSide } from "./drift.js";
export { ChangeDetector, fitPrior, median, predictive, recentChange, addWeighted, MIN_BEFORE, MIN_RUN, OUTLIER, type Moments, type Prior } from "./bocpd.js";
export { sessionSeries, seenInTraining, type SessionSeries, type SiteSums } from "./series.js";
export { driftMarkdown, MOVED_SHOWN } from "./markdown.js";
export { lgamma, logSumExp, studentTLogPdf } from "./student-t.js";
