/**
 * What the judge reads of a session, kept one event at a time: the exchange so far and the
 * record lists the tools returned, with the exchange and the number of lists noted at each
 * call as it is added. A judgment then costs the same at a session's 1,000th write as at its
 * first, and a call is judged on what came before its turn even when later lines were
 * logged while it waited.
 */
import type { EpisodeEvent } from "../../trace/episode-types.js";
import type { Exchange } from "./exchange.js";
import { addRecordLists, type RecordOf } from "./proposal-check.js";

/** The part of a session a judgment reads. */
export interface SeenBefore {
  exchange: Exchange;
  /** The record lists looked up before the call, oldest first. */
  lists: readonly RecordOf[][];
}

export class SeenSoFar {
  private agentLast = "";
  private exchange: Exchange = { proposal: "", customer: "" };
  private readonly lists: RecordOf[][] = [];
  /** By call id: the exchange then, and how many lists there were. */
  private readonly atCalls = new Map<string, { exchange: Exchange; lists: number }>();

  /** A user message, an agent's text, or a tool result (calls go to `addCall`). */
  apply(e: EpisodeEvent): void {
    if (e.kind === "assistant") {
      if (e.text !== null && e.text.trim() !== "") this.agentLast = e.text;
    } else if (e.kind === "user") {
      this.exchange = { proposal: this.agentLast, customer: e.text };
    } else {
      // A call is judged before it goes on, so once its result is here its note is not read again.
      this.atCalls.delete(e.call_id);
      addRecordLists(e, this.lists);
    }
  }

  /** A call, as it joins the session: what came before its turn is noted under its id. */
  addCall(id: string): void {
    this.atCalls.set(id, { exchange: this.exchange, lists: this.lists.length });
  }

  /** What came before call `id`'s turn; what the session has shown so far for a call not in it (a commit's). */
  before(id: string | undefined): SeenBefore {
    const at = id === undefined ? undefined : this.atCalls.get(id);
    if (at === undefined) return { exchange: this.exchange, lists: this.lists };
    return { exchange: at.exchange, lists: this.lists.slice(0, at.lists) };
  }
}
