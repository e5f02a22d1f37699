/**
 * The session as a served flow keeps it itself, when no other plugin reads the Episode whole
 * (docs/session-memory.md): the Episode's events and turns, followed as they are logged, with
 * the repeats of a long turn folded, so that a turn of many calls (an agent that pipelines
 * them) holds what it showed, not every call.
 *
 * A fold reads the newest turn. Each of its answered calls that repeats an earlier answered
 * call of the turn (the same tool, the same arguments as written, the same result) goes, with
 * the earlier call's result; the earlier call keeps the newest of their results, where that
 * result stands. Only calls older than the turn's newest `keep` + 1 answered calls are folded.
 * A decision reads the same from the folded session (live-decisions.ts):
 * - its last steps: the decided call, then the turn's newest answered calls, newest first,
 *   `keep` at most, none of them folded (answered calls stay answered);
 * - its binding (bind/session.ts): the values passed (the earlier call passed each), what the
 *   first call that passed a value returned (the earlier call, with the same result), the
 *   outputs newest first (each output's newest place stays, and a binding walks an output it
 *   already walked to no effect), the values the customer gave (one turn, read at once), the
 *   outputs seen before each later call (a fold moves nothing behind a turn that follows).
 * A call whose id shows twice, or whose result does, is never folded.
 *
 * The closed past goes too, in a session of many turns: once the session holds LET_GO_AT
 * events at a new turn (then twice what was left), the reader of its past (`PastReader`, the
 * flow's live decisions) reads what no decision can read again as events into its own
 * bounded reading, and the events go (live-decisions.ts says which).
 */
import type { AssistantEvent, Episode, EpisodeEvent, ToolCall, ToolResultEvent } from "../../trace/episode-types.js";

/** The fewest calls a turn has before it is first folded; after a fold, twice what was left. */
export const FOLD_AT = 1024;

/** The fewest events the session holds before its past is first let go; after, twice what was left. */
export const LET_GO_AT = 4096;

/** Who reads the session's closed past before its events go. */
export interface PastReader {
  /**
   * How many of the first `events` may go (0 none), once read: no later decision reads
   * them as events. `keep`: how many steps back a decision reads.
   */
  letGo(events: readonly EpisodeEvent[], keep: number): number;
}

export class FollowedEpisode {
  /** The session's events, the newest turn's repeats folded; replaced (not changed) by a fold. */
  events: EpisodeEvent[] = [];
  /** Bumped by each fold that changed the events: a reader's index of them is stale. */
  generation = 0;
  private newest: AssistantEvent | undefined;
  private newestAt = -1;
  private foldAt: number;
  private stopped = false;
  private reader: PastReader | undefined;
  private letGoAt: number;

  /**
   * `keep`: how many steps back a decision reads (the flow's context length); `header`: the
   * Episode's other fields; `firstFold`: FOLD_AT, fewer in specs that fold short turns;
   * `firstLetGo`: LET_GO_AT, fewer in specs.
   */
  constructor(
    private readonly keep: number,
    private readonly header: () => Episode,
    private readonly firstFold = FOLD_AT,
    private readonly firstLetGo = LET_GO_AT,
  ) {
    this.foldAt = firstFold;
    this.letGoAt = firstLetGo;
  }

  /** From now on `reader` reads the closed past, and its events go once read (one reader). */
  readPastWith(reader: PastReader): void {
    this.reader = reader;
  }

  /** The session as a flow decision reads it (`header` first: it may hand on events that waited). */
  episode(): Episode {
    const header = this.header();
    return { ...header, events: this.events };
  }

  turn(): void {
    if (this.stopped) return;
    this.newest = { kind: "assistant", text: null, calls: [], usage: null };
    this.newestAt = this.events.length;
    this.events.push(this.newest);
    this.foldAt = this.firstFold;
    if (this.reader !== undefined && this.events.length >= this.letGoAt) {
      const gone = this.reader.letGo(this.events, this.keep);
      // A new array, as a fold makes: a decision point still reading the old one reads it whole.
      if (gone > 0) this.events = this.events.slice(gone);
      this.newestAt -= gone;
      this.letGoAt = Math.max(this.firstLetGo, 2 * this.events.length);
    }
  }

  call(c: ToolCall): void {
    if (this.stopped || this.newest === undefined) return;
    this.newest.calls.push(c);
    if (this.newest.calls.length >= this.foldAt) {
      this.fold();
      this.foldAt = Math.max(this.firstFold, 2 * this.newest.calls.length);
    }
  }

  event(e: EpisodeEvent): void {
    if (!this.stopped) this.events.push(e);
  }

  /** Keeps nothing from now on: the flow decides nothing more. */
  stop(): void {
    this.stopped = true;
    this.events = [];
    this.newest = undefined;
    this.reader = undefined;
  }

  /** Folds the newest turn's repeats (see above). */
  private fold(): void {
    const turn = this.newest!;
    const events = this.events;
    // How often each call id shows, as a call and as a result: only ids that show once each are folded.
    const callCount = new Map<string, number>();
    for (const e of events) if (e.kind === "assistant") for (const c of e.calls) callCount.set(c.id, (callCount.get(c.id) ?? 0) + 1);
    const resultAt = new Map<string, number>();
    const resultCount = new Map<string, number>();
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      if (e.kind !== "tool_result") continue;
      resultCount.set(e.call_id, (resultCount.get(e.call_id) ?? 0) + 1);
      if (i > this.newestAt) resultAt.set(e.call_id, i);
    }
    const foldable = (c: ToolCall): boolean => callCount.get(c.id) === 1 && resultCount.get(c.id) === 1 && resultAt.has(c.id);
    // The newest `keep` + 1 answered calls (of ids that show once) stay as they are, and every call after the oldest of them.
    const calls = turn.calls;
    let answered = 0;
    let end = calls.length;
    while (end > 0 && answered <= this.keep) if (foldable(calls[--end]!)) answered++;
    if (answered <= this.keep) return;
    // By what a call repeats: the earliest such call, and the newest of their results.
    const firsts = new Map<string, { call: ToolCall; result: number }>();
    const dropCalls = new Set<number>();
    const dropEvents = new Set<number>();
    const moved = new Map<number, ToolCall>();
    for (let i = 0; i < end; i++) {
      const c = calls[i]!;
      if (!foldable(c)) continue;
      const at = resultAt.get(c.id)!;
      const r = events[at] as ToolResultEvent;
      const key = `${c.name}\u0000${JSON.stringify(c.arguments)}\u0000${r.error ? 1 : 0}\u0000${r.content}`;
      const first = firsts.get(key);
      if (first === undefined) {
        firsts.set(key, { call: c, result: at });
        continue;
      }
      dropCalls.add(i);
      const older = Math.min(first.result, at);
      const newer = Math.max(first.result, at);
      dropEvents.add(older);
      moved.delete(older);
      moved.set(newer, first.call);
      first.result = newer;
    }
    if (dropCalls.size === 0) return;
    const folded: AssistantEvent = { ...turn, calls: calls.filter((_, i) => !dropCalls.has(i)) };
    const out: EpisodeEvent[] = [];
    for (let i = 0; i < events.length; i++) {
      if (dropEvents.has(i)) continue;
      if (i === this.newestAt) {
        out.push(folded);
        continue;
      }
      const e = events[i]!;
      const to = moved.get(i);
      out.push(to === undefined ? e : { kind: "tool_result", call_id: to.id, name: (e as ToolResultEvent).name, error: (e as ToolResultEvent).error, content: (e as ToolResultEvent).content });
    }
    this.newestAt = out.indexOf(folded);
    this.newest = folded;
    this.events = out;
    this.generation++;
  }
}
