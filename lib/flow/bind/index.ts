/**
 * Binding a lookup's arguments (bind.ts) and what a flow may call (withheld.ts).
 *
 * The deciding part takes a `Binder` for one decision point, built from the flow, the session
 * episode after the call (`afterCall`'s `episode`) and the calls in flight (its `inFlight`):
 *
 *     const { episode, inFlight } = afterCall(session, after);
 *     const bind = binderFor(flow, episode, inFlight);
 *     const b = bind("get_user_details"); // { args, chance } or undefined
 *
 * `explainingBinderFor` gives the same with the reason a lookup does not bind, for the
 * hand-back reason `{tool}: {why}`. The flow plugin checks `withheld` before making a lookup.
 */
import type { Episode, ToolCall } from "../../trace/episode-types.js";
import type { Flow } from "../ir/flow-types.js";
import { bindIn, type Binding, type Bound } from "./bind.js";
import { SessionView } from "./session.js";

export {
  REQUIRED_SHARE,
  bareChance,
  bindByName,
  bindIn,
  bindPending,
  mentionChance,
  pick,
  requiredArgs,
  type Binding,
  type Bound,
  type Mention,
  type Picked,
} from "./bind.js";
export { atPath, findPaths, firstPath, lowerScalars, namedValues, parseOutput, valueText, type Found } from "./json-path.js";
export { MIN_MENTION, keyish, mentionedWithSiblings, mentions } from "./mentions.js";
export { SessionReading, SessionView, type Output, type ParseOutput, type ParsedOutput } from "./session.js";
export { MIN_SITE_VALUES, MIN_SOURCE_SHARE, atSite, eachPlace, sourceRules, type Source } from "./sources.js";
export { learnListedTools, leftToTheAgent, withheld, type ListedTool, type ListedTools, type WithheldContext } from "./withheld.js";

/** One decision point's binder: a tool's bound arguments and their chance, or undefined. */
export type Binder = (tool: string) => Bound | undefined;
/** The same, saying why a tool does not bind. */
export type ExplainingBinder = (tool: string) => Binding;

/**
 * The binder for one decision: `episode` is the session episode after the call (already
 * through `afterCall`), `inFlight` the calls of its turn still awaiting results. The
 * session is read once; each call binds one tool. Pure: the same inputs bind the same.
 */
export function explainingBinderFor(flow: Flow, episode: Episode, inFlight: readonly ToolCall[] = []): ExplainingBinder {
  return explainingBinderIn(flow, new SessionView(episode, inFlight));
}

/** The same over a view already built (the live session keeps one read incrementally). */
export function explainingBinderIn(flow: Flow, view: SessionView): ExplainingBinder {
  return (tool) => bindIn(flow, tool, view);
}

/** `explainingBinderFor` in the shape `(tool) => { args, chance } | undefined`. */
export function binderFor(flow: Flow, episode: Episode, inFlight: readonly ToolCall[] = []): Binder {
  const bind = explainingBinderFor(flow, episode, inFlight);
  return (tool) => {
    const b = bind(tool);
    return b.ok ? { args: b.args, chance: b.chance } : undefined;
  };
}
