/**
 * Learning a surprise gate's threshold (`learn --surprise Q`): how surprising successful
 * sessions are to a flow that never saw their task. The tasks are split into folds; for each
 * fold, a habit learned from the other folds scores the fold's successful sessions, and each
 * session gives its most surprising window. The threshold is the Q quantile of those peaks,
 * so a gate at Q = 0.95 would have handed back in about one held-out session in twenty.
 */
import { foldOf } from "../flow/decide/index.js";
import type { SurpriseGate } from "../flow/ir/flow-types.js";
import { FOLDS } from "../learn/arbiter/index.js";
import { isSuccess, learnFlow, LearnError, type LearnInput } from "../learn/index.js";
import { peakWindow, sessionSurprises } from "../plugins/flow/surprise.js";
import type { Episode } from "../trace/episode-types.js";

/** A session's task: τ²-bench names it; a recorded session is its own. */
function taskOf(ep: Episode): string {
  return ep.task_id === "" ? ep.id : ep.task_id;
}

/** The held-out peaks, sorted; each fold with successful sessions both in and out gives its own. */
export function heldOutPeaks(input: LearnInput, window: number): number[] {
  const peaks: number[] = [];
  const folds = Array.from({ length: FOLDS }, () => [] as Episode[]);
  for (const ep of input.episodes) folds[foldOf(taskOf(ep), FOLDS)]!.push(ep);
  for (let f = 0; f < FOLDS; f++) {
    const held = folds[f]!.filter(isSuccess);
    const training = folds.flatMap((eps, g) => (g === f ? [] : eps)).filter(isSuccess);
    if (held.length === 0 || training.length === 0) continue;
    const flow = learnFlow({ ...input, training });
    for (const ep of held) {
      const peak = peakWindow(sessionSurprises(flow, ep), window);
      if (peak !== undefined) peaks.push(peak);
    }
  }
  return peaks.sort((a, b) => a - b);
}

/** The gate at quantile `q` of the held-out peaks; a LearnError when no session gave one. */
export function learnGate(input: LearnInput, q: number, window: number): SurpriseGate {
  const peaks = heldOutPeaks(input, window);
  const n = peaks.length;
  if (n === 0) {
    throw new LearnError(
      `no held-out training session had ${window} of the agent's steps to score: the surprise gate needs successful sessions of several tasks, and fewer steps (--surprise-window)`,
    );
  }
  const rank = Math.min(Math.max(Math.ceil(q * n), 1), n);
  return { window, threshold: peaks[rank - 1]!, quantile: q };
}
