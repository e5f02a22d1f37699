/**
 * "The exchange" a confirmation is judged on: what the agent said last before the customer's
 * last message (its proposal), and that message. Assistant text after the customer's last
 * message does not count: the customer never answered it.
 */
import type { EpisodeEvent } from "../../trace/episode-types.js";

export interface Exchange {
  /** The agent's last non-blank text before the customer's last message ("" if none). */
  proposal: string;
  /** The customer's last message ("" when the customer never spoke). */
  customer: string;
}

/** The exchange over `events`, which must end before the call being judged. */
export function exchangeOf(events: Iterable<EpisodeEvent>): Exchange {
  let agentLast = "";
  let out: Exchange = { proposal: "", customer: "" };
  for (const e of events) {
    if (e.kind === "assistant" && e.text !== null && e.text.trim() !== "") agentLast = e.text;
    else if (e.kind === "user") out = { proposal: agentLast, customer: e.text };
  }
  return out;
}
