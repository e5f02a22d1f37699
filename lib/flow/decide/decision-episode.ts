/**
 * What a decision reads of the session: the episode after
 * `after_call`, its steps, and the calls still in flight. Most decisions need only the last
 * step (the site) and a few steps before it (the habit's context), so those are asked for
 * separately: the live session answers them without walking the whole session, and builds
 * the whole episode only for what reads all of it (the arbiter, exploration, binding).
 */
import { afterCall } from "../../trace/episode-queries.js";
import type { Episode, ToolCall } from "../../trace/episode-types.js";
import { SessionView } from "../bind/session.js";
import { steps, type Step } from "./steps.js";

export interface DecisionEpisode {
  /** The last step: the call decided after, unless something was said since. */
  readonly last: Step | undefined;
  /** The last `k` steps (fewer when the episode has fewer), oldest first. */
  recent(k: number): readonly Step[];
  /** The whole episode after the call. */
  readonly episode: Episode;
  /** The calls of its turn still awaiting results: a lookup never repeats them. */
  readonly inFlight: readonly ToolCall[];
  /** What a binding reads of it (the episode and the calls in flight). */
  readonly view: SessionView;
}

/**
 * A decision point over an episode already through `afterCall` (every step computed once).
 * `readView` makes what a binding reads, when first asked: by default the episode and the
 * calls in flight, read whole.
 */
export function decisionAt(episode: Episode, inFlight: readonly ToolCall[] = [], readView: () => SessionView = () => new SessionView(episode, inFlight)): DecisionEpisode {
  const all = steps(episode);
  let view: SessionView | undefined;
  return {
    last: all[all.length - 1],
    recent: (k) => all.slice(Math.max(0, all.length - k)),
    episode,
    inFlight,
    get view() {
      return (view ??= readView());
    },
  };
}

/** The decision point after call `callId` returned, from the whole session episode. */
export function decisionAfter(session: Episode, callId: string): DecisionEpisode {
  const { episode, inFlight } = afterCall(session, callId);
  return decisionAt(episode, inFlight);
}
