/** The prior's standard deviation on log α (the habit's smoothing; see alpha.ts). */
export const PRIOR_SD = 2;
