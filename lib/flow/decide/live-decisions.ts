/**
 * Decision points over the live session episode, at a cost that does not grow with the
 * session: the episode's events are indexed once as they arrive (which turn holds each
 * call, each call's first result, the last assistant event), so the last step and the few
 * before it come from a short walk back from the call's turn instead of `steps()` over the
 * whole session. The whole episode is built only when a decision reads it.
 *
 * What a binding reads is kept the same way: the events before the call's turn are read
 * once, into a `SessionReading` that grows with the session, and only the turn and what
 * followed it are read per decision.
 *
 * The answers are exactly `decisionAfter(session, callId)`'s (the spec checks them against
 * each other); where the short walk would not be exact (something was said after the
 * call's turn, or the call is unknown), the whole episode is read instead. A decision point
 * is read before the next one is taken (the flow decides one step at a time).
 *
 * Over the flow's own copy of the session (followed-episode.ts), the closed past goes once
 * read (`letGo`): the events before the oldest turn that still awaits a result, less the
 * turns the last steps read, are read into `past`, a reading compacted as it grows
 * (compact-reading.ts), and their entries here go. No decision reads them as events again:
 * a decision follows a call's first result, so its turn is one that awaited it, and its last
 * steps are among the events kept; reading the whole episode is then reading `past` and
 * the events kept (a call id used again after its call went aside, as compact-reading.ts says).
 */
import type { AssistantEvent, Episode, EpisodeEvent, ToolCall, ToolResultEvent } from "../../trace/episode-types.js";
import { afterCall } from "../../trace/episode-queries.js";
import { qualify, qualifyCall, qualifyEpisode, qualifyEvent } from "../../trace/qualify.js";
import { lowerScalars, parseOutput } from "../bind/json-path.js";
import { compactReading } from "../bind/compact-reading.js";
import { SessionReading, SessionView, type ParsedOutput, type ParseOutput } from "../bind/session.js";
import { decisionAfter, decisionAt, type DecisionEpisode } from "./decision-episode.js";
import type { PastReader } from "./followed-episode.js";
import { END, ERR, OK, REPLY, type Step } from "./steps.js";
import { keepNewest } from "../../util/keep-newest.js";

/** The fewest outputs the past holds before it is first compacted; after, twice what was left. */
const COMPACT_AT = 1024;

export class LiveDecisions implements PastReader {
  /** Each call id's first turn, by event index (`afterCall` finds the first). */
  private readonly turnOf = new Map<string, number>();
  /** Where in that turn the id last appears (`afterCall` moves every copy last; the last is the step). */
  private readonly lastAt = new Map<string, number>();
  /** Each call's first result (`steps` reads the first). */
  private readonly results = new Map<string, ToolResultEvent>();
  private scanned = 0;
  /** The newest turn, which may still gain calls, and how many of them are indexed. */
  private newestTurn = -1;
  private newestTurnCalls = 0;
  private lastAssistant = -1;

  /**
   * Each distinct output parsed once. Keyed by its text, so an output read again (agents
   * re-read records) is the same value, and a binding walks each path of it once
   * (`foundAt` keeps the walks with the parse).
   */
  private readonly parsed = new Map<string, ParsedOutput>();
  readonly parse: ParseOutput = (content) => {
    let p = this.parsed.get(content);
    if (p === undefined) {
      const value = parseOutput(content);
      p = { value, scalars: lowerScalars(value), walks: new Map() };
      this.parsed.set(content, p);
    }
    return p;
  };
  /** The events that went (`letGo`), read for bindings; undefined until some went. */
  private past: SessionReading | undefined;
  private compactAt = COMPACT_AT;
  /** The events before `readUpTo`, read for bindings (on the past). */
  private closed = new SessionReading(undefined, this.parse);
  private readUpTo = 0;

  /** The `generation` the indexes above were made for. */
  private indexed = 0;

  /**
   * `session` gives the live episode: its `events` array grows in place. With `server`
   * (a flow learned across servers) every tool is read as `server::tool`. With
   * `generation`, the episode may also be rewritten to one a decision reads alike (the
   * flow's own, folded: followed-episode.ts), and says so by a new generation: what was
   * indexed and read of it is then read again. `firstCompact`: COMPACT_AT, fewer in specs.
   */
  constructor(
    private readonly session: () => Episode,
    readonly server?: string,
    private readonly generation?: () => number,
    private readonly firstCompact = COMPACT_AT,
  ) {
    this.compactAt = firstCompact;
  }

  /** Forgets what was indexed and read of an episode since rewritten (the parsed outputs stay). */
  private resync(): void {
    const now = this.generation?.() ?? 0;
    if (now === this.indexed) return;
    this.indexed = now;
    this.turnOf.clear();
    this.lastAt.clear();
    this.results.clear();
    this.scanned = 0;
    this.newestTurn = -1;
    this.newestTurnCalls = 0;
    this.lastAssistant = -1;
    // A fold rewrites the newest turn and what follows it, never the past that went before it.
    this.closed = new SessionReading(this.past, this.parse);
    this.readUpTo = 0;
  }

  /**
   * Reads the first events that no decision reads as events again into the past, forgets
   * them here, and says how many they are (followed-episode.ts lets them go). They end
   * before the oldest turn with a call still awaiting its result (a decision follows a
   * call's first result), and before the `keep` turns and replies that precede it (the last
   * steps a decision reads).
   */
  letGo(events: readonly EpisodeEvent[], keep: number): number {
    this.resync();
    this.sync(events);
    if (this.newestTurn <= 0) return 0;
    const answered = new Set<string>();
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      if (e.kind === "tool_result") answered.add(e.call_id);
    }
    let end = this.newestTurn;
    for (let i = 0; i < end; i++) {
      const e = events[i]!;
      if (e.kind === "assistant" && e.calls.some((c) => !answered.has(c.id))) end = i;
    }
    let turns = 0;
    // At least the turn before: an answer is logged before the flow reads it.
    const back = Math.max(1, keep);
    while (end > 0 && turns < back) if (events[--end]!.kind === "assistant") turns++;
    if (turns < back || end === 0) return 0;
    const past = (this.past ??= new SessionReading(undefined, this.parse, true));
    for (let i = 0; i < end; i++) past.read(this.event(events[i]!));
    if (past.outputs.length >= this.compactAt) {
      compactReading(past);
      this.compactAt = Math.max(this.firstCompact, 2 * past.outputs.length);
    }
    // What was read of the events that stay is read again on the past.
    const upTo = Math.max(this.readUpTo, end);
    this.closed = new SessionReading(past, this.parse);
    for (let i = end; i < upTo; i++) this.closed.read(this.event(events[i]!));
    this.readUpTo = upTo - end;
    this.scanned -= end;
    this.newestTurn -= end;
    this.lastAssistant -= end;
    for (const [id, at] of this.turnOf) {
      if (at >= end) this.turnOf.set(id, at - end);
      else {
        this.turnOf.delete(id);
        this.lastAt.delete(id);
      }
    }
    for (const id of this.results.keys()) if (!this.turnOf.has(id)) this.results.delete(id);
    return end;
  }

  /** A tool's name as the flow knows it. */
  name(tool: string): string {
    return this.server === undefined ? tool : qualify(this.server, tool);
  }

  /** An event as the flow reads it. */
  event(e: EpisodeEvent): EpisodeEvent {
    return this.server === undefined ? e : qualifyEvent(e, this.server);
  }

  /** The session as the flow reads it (every event copied when it names its server). */
  episodeOf(ep: Episode): Episode {
    return this.server === undefined ? ep : qualifyEpisode(ep, this.server);
  }

  /** The decision point after call `callId` returned, as the session stands now. */
  after(callId: string): DecisionEpisode {
    // The session first: reading it may hand on lines that waited, and fold.
    const session = this.session();
    this.resync();
    this.sync(session.events);
    const t = this.turnOf.get(callId);
    // Something said (or another turn begun) after the call's turn changes the last steps.
    // (The closed reading never reads past the newest turn, the call's: the whole is read were it to.)
    if (t === undefined || this.lastAssistant !== t || this.readUpTo > t) return this.wholeAfter(session, callId);
    return new LivePoint(this, session, t, callId, this.lastAt.get(callId)!);
  }

  /** The decision point read from the whole episode: the events kept, on the past that went. */
  private wholeAfter(session: Episode, callId: string): DecisionEpisode {
    const past = this.past;
    if (past === undefined) return decisionAfter(this.episodeOf(session), callId);
    const { episode, inFlight } = afterCall(this.episodeOf(session), callId);
    const parse = this.parse;
    // (Only the arbiter and exploration read the episode itself, and neither reads the flow's own copy.)
    return decisionAt(episode, inFlight, () => {
      const top = new SessionReading(past, parse);
      for (const e of episode.events) top.read(e);
      if (inFlight.length > 0) top.inFlight(inFlight);
      return new SessionView(top);
    });
  }

  /** Each call's first result. */
  resultOf(callId: string): ToolResultEvent | undefined {
    return this.results.get(callId);
  }

  /** The reading of the events before `t`, which no longer change. */
  readClosed(events: readonly EpisodeEvent[], t: number): SessionReading {
    for (; this.readUpTo < t; this.readUpTo++) this.closed.read(this.event(events[this.readUpTo]!));
    return this.closed;
  }

  /**
   * Reads the events before the newest turn of calls into the closed reading now, rather
   * than at the next decision that binds: they no longer change (only the newest turn gains
   * calls), and that decision would read them first. The flow asks for it once the agent's
   * answer has gone out, so the next decision reads only what came after.
   */
  readAhead(): void {
    const events = this.session().events;
    this.resync();
    this.sync(events);
    if (this.newestTurn > this.readUpTo) this.readClosed(events, this.newestTurn);
  }

  /** Index what arrived since the last call: new events, and calls the newest turn gained. */
  private sync(events: readonly EpisodeEvent[]): void {
    if (this.newestTurn >= 0) this.indexCalls(events[this.newestTurn] as AssistantEvent, this.newestTurn);
    for (; this.scanned < events.length; this.scanned++) {
      const e = events[this.scanned]!;
      if (e.kind === "tool_result") {
        if (!this.results.has(e.call_id)) this.results.set(e.call_id, e);
      } else if (e.kind === "assistant") {
        this.lastAssistant = this.scanned;
        if (e.text === null) {
          this.newestTurn = this.scanned;
          this.newestTurnCalls = 0;
          this.indexCalls(e, this.scanned);
        }
      }
    }
  }

  private indexCalls(turn: AssistantEvent, index: number): void {
    for (; this.newestTurnCalls < turn.calls.length; this.newestTurnCalls++) {
      const id = turn.calls[this.newestTurnCalls]!.id;
      const first = this.turnOf.get(id);
      if (first === undefined) this.turnOf.set(id, index);
      if (first === undefined || first === index) this.lastAt.set(id, this.newestTurnCalls);
    }
  }
}

/**
 * One decision point of the live session: the call's turn `t` and how long it and the
 * session were (events and a turn's calls only ever grow, so their lengths are the snapshot).
 */
class LivePoint implements DecisionEpisode {
  readonly last: Step;
  private readonly eventCount: number;
  private readonly turn: AssistantEvent;
  private readonly callCount: number;
  private whole: { episode: Episode; inFlight: ToolCall[] } | undefined;
  private read: SessionView | undefined;

  constructor(
    private readonly decisions: LiveDecisions,
    private readonly session: Episode,
    private readonly t: number,
    private readonly callId: string,
    at: number,
  ) {
    this.eventCount = session.events.length;
    this.turn = session.events[t] as AssistantEvent;
    this.callCount = this.turn.calls.length;
    this.last = this.stepOf(this.turn.calls[at]!);
    // Keeps the instances' V8 map across full collections (see keep-newest.ts).
    keepNewest(this);
  }

  private stepOf(c: ToolCall): Step {
    const r = this.decisions.resultOf(c.id);
    const tool = this.decisions.name(c.name);
    return r === undefined || r.error ? { kind: "call", tool, outcome: ERR } : { kind: "call", tool, outcome: OK, output: r.content };
  }

  recent(k: number): readonly Step[] {
    const out: Step[] = [];
    if (k <= 0) return out;
    const { turn, callCount, callId } = this;
    // The call itself (every copy, were its id reused in the turn), then the turn's other
    // answered calls, newest first.
    for (let i = callCount - 1; i >= 0 && out.length < k; i--) if (turn.calls[i]!.id === callId) out.push(this.stepOf(turn.calls[i]!));
    for (let i = callCount - 1; i >= 0 && out.length < k; i--) {
      const c = turn.calls[i]!;
      if (c.id !== callId && this.decisions.resultOf(c.id) !== undefined) out.push(this.stepOf(c));
    }
    // Then the events before the turn, read backwards (a reply is a respond step the user answered).
    const events = this.session.events;
    let userSince = false;
    for (let e = this.t - 1; e >= 0 && out.length < k; e--) {
      const ev = events[e]!;
      if (ev.kind === "user") userSince = true;
      else if (ev.kind === "assistant") {
        if (ev.calls.length === 0) {
          out.push({ kind: "respond", outcome: userSince ? REPLY : END });
          continue;
        }
        for (let i = ev.calls.length - 1; i >= 0 && out.length < k; i--) out.push(this.stepOf(ev.calls[i]!));
        userSince = false;
      }
    }
    return out.reverse();
  }

  private wholeAfter(): { episode: Episode; inFlight: ToolCall[] } {
    if (this.whole !== undefined) return this.whole;
    const events = this.session.events.slice(0, this.eventCount);
    events[this.t] = { ...this.turn, calls: this.turn.calls.slice(0, this.callCount) };
    return (this.whole = afterCall(this.decisions.episodeOf({ ...this.session, events }), this.callId));
  }

  get episode(): Episode {
    return this.wholeAfter().episode;
  }

  get inFlight(): readonly ToolCall[] {
    return this.wholeAfter().inFlight;
  }

  get view(): SessionView {
    if (this.read !== undefined) return this.read;
    const { decisions, turn, t, callId } = this;
    // The closed part once; then the turn as `afterCall` leaves it, what followed, and its calls in flight.
    const closed = decisions.readClosed(this.session.events, t);
    const kept: ToolCall[] = [];
    const copies: ToolCall[] = [];
    const inFlight: ToolCall[] = [];
    for (let i = 0; i < this.callCount; i++) {
      const c = turn.calls[i]!;
      if (c.id === callId) copies.push(c);
      else if (decisions.resultOf(c.id) !== undefined) kept.push(c);
      else inFlight.push(c);
    }
    const top = new SessionReading(closed, decisions.parse);
    top.read(decisions.event({ ...turn, calls: [...kept, ...copies] }));
    for (let e = t + 1; e < this.eventCount; e++) top.read(decisions.event(this.session.events[e]!));
    // Calls in flight are rare: an empty list (an array of another V8 kind) is not handed on,
    // so the code optimized for the lists that are does not meet it and deoptimize.
    if (inFlight.length > 0) top.inFlight(inFlight.map((c) => (decisions.server === undefined ? c : qualifyCall(c, decisions.server))));
    return (this.read = new SessionView(top));
  }
}
