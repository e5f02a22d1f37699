import { Subject, type Observable } from "../rx.js";
import { CHECKED, PARSED, type Frame } from "../frame.js";
import { readsBack } from "../../protocol/reads-back.js";
import type { RecordSink } from "../record-port.js";
import type { AssistantEvent, Episode } from "../../trace/episode-types.js";
import type { Json } from "../../trace/json.js";
import type { LogHeader } from "../../trace/log-types.js";
import { EpisodeBuilder, type EpisodeBuilderOptions } from "../../trace/turns.js";
import type { EpisodeFollower, TurnFollower } from "./api.js";
import { jsonOf, jsonOfLate } from "./json-rpc.js";

/**
 * How much text turn inference may keep, each of what the current turn returned and what
 * came before it (the latest 64 Ki characters of each), where a live Episode must infer
 * turns in bounded memory (`EpisodeBuilderOptions.textChars`). A session that keeps no
 * history infers no turns at all: no follower sees them (calls come one by one), so it
 * keeps no text for them.
 */
export const KEPT_TEXT_CHARS = 1 << 16;

/**
 * How many lines, and how many of their bytes, may wait unread for the Episode (when no one
 * follows it) before it catches up: what a session that never reads its Episode holds
 * beyond the Episode it would have built, at most.
 */
export const MAX_UNREAD_LINES = 1 << 16;
export const MAX_UNREAD_BYTES = 8 << 20;

/** What the live Episode holds right now (`SessionLog.retained`). */
export interface Retained {
  /** Events kept in the Episode (tool results among them, with their texts). */
  events: number;
  /** Calls kept in the newest turn of calls. */
  calls: number;
}

/**
 * The active session's log: every line, in the order it is logged, goes to the recorder
 * (with --record), to the session's Episode (kept incrementally, so a decision costs the
 * same at the 10 000th call as at the 10th), to the Episode's followers, and to `frames$`
 * for plugins that watch.
 *
 * The Episode is built when it is needed: with followers, as each line is logged (they are
 * handed each event before the next line is judged); without, only when `episode()` is
 * asked, or when too many lines wait (`MAX_UNREAD_LINES`, `MAX_UNREAD_BYTES`; then line by
 * line until `episode()` is next asked). Until then a line waits unread, so a session whose plugins never read the Episode never parses the
 * lines only the Episode would. Catching up reads the same lines in the same order, each
 * once (reusing a value a plugin parsed meanwhile), so the Episode is the same.
 *
 * The Episode keeps every event unless the session says, before its first line, that no
 * plugin reads it whole (`keepWhole(false)`): then each event is handed to the followers
 * and dropped, and no turns are inferred (nothing would see them), so a session of a
 * million calls runs in flat memory (docs/session-memory.md). The session may also say so
 * later, once the last plugin that read it whole stops (`dropHistory`). The log on disk
 * keeps it all.
 */
export class SessionLog {
  private builder = new EpisodeBuilder();
  private whole = true;
  private logged = false;
  private readonly frames = new Subject<Frame>();
  readonly frames$: Observable<Frame> = this.frames.asObservable();
  private readonly followers: EpisodeFollower[] = [];
  /** The followers told where each turn begins (`followTurns`): for them turns are inferred even with no history kept. */
  private readonly turnFollowers: TurnFollower[] = [];
  /** The next event to hand on; the newest turn of calls (only it gains calls) and how many of them were handed on. */
  private next = 0;
  private turn: AssistantEvent | undefined;
  private turnCalls = 0;
  /** Lines logged but not yet read into the Episode (only while no one follows it), and their bytes. */
  private unread: Frame[] = [];
  private unreadBytes = 0;
  /**
   * Whether lines are read as they are logged although no one follows: once too many lines
   * waited, the Episode is likely never read, and a line read at once is cheaper than one
   * kept for later (it dies young). Until `episode()` is next asked.
   */
  private readNow = false;

  constructor(
    private readonly header: LogHeader,
    private readonly recorder: RecordSink | undefined,
  ) {}

  /** Whether the Episode keeps every event (the default); say so before the first line. */
  keepWhole(whole: boolean): void {
    if (this.logged) throw new Error("SessionLog.keepWhole: the session has logged lines already");
    this.whole = whole;
    this.builder = new EpisodeBuilder(whole ? {} : this.noHistory());
    this.settleResults();
  }

  /**
   * Drops the Episode's history in the middle of a session, once the last plugin that read it
   * whole says it no longer does: the events kept so far go, and from now on each event is
   * handed to the followers and dropped, as after `keepWhole(false)`. With followers, the
   * builder goes on (it knows the calls in flight, whose results they await), inferring no
   * turns from now on and keeping none of the text that takes; with none, a
   * builder that infers no turns takes over, and what was in flight is forgotten with the
   * rest (no one would be handed it).
   */
  dropHistory(): void {
    if (!this.whole) return;
    this.whole = false;
    if (this.followers.length > 0) {
      this.catchUp();
      // Each event was handed on as its line was read; only the dropping is left, and the
      // text turn inference kept, unless a follower sees the turns.
      if (this.turnFollowers.length === 0) this.builder.stopInferringTurns();
      else this.builder.shareTexts();
      this.builder.events.length = 0;
      if (this.turn !== undefined) this.turn.calls.length = 0;
    } else {
      this.unread = [];
      this.unreadBytes = 0;
      this.readNow = false;
      this.builder = new EpisodeBuilder(this.noHistory());
      this.turn = undefined;
    }
    this.next = 0;
    this.turnCalls = 0;
    this.settleResults();
  }

  /** Hands `follower` each event of the Episode from now on, in log order, as it is made. */
  follow(follower: EpisodeFollower): void {
    this.catchUp();
    this.followers.push(follower);
    this.settleResults();
  }

  /**
   * `follow`, telling `follower` where each turn begins; turns are then inferred for the rest
   * of the session even when it keeps no history (say so before the first line). Unless
   * another follower needs each line read as it is logged, lines wait unread for it as for
   * the Episode, and it is handed their events when the Episode is next asked for.
   */
  followTurns(follower: TurnFollower): void {
    if (this.logged) throw new Error("SessionLog.followTurns: the session has logged lines already");
    this.turnFollowers.push(follower);
    this.follow(follower);
  }

  /**
   * How a builder that keeps no history is made: inferring no turns, unless a follower sees
   * them; then with every text it searches kept once (a long session shows the same
   * results again and again).
   */
  private noHistory(): EpisodeBuilderOptions {
    return this.turnFollowers.length === 0 ? { turns: false } : { sharedTexts: true };
  }

  /**
   * Tool results are made with their text read lazily when the Episode keeps no history and
   * every follower keeps no event: no one then reads a result whole, and a result's record
   * reaches the guards' facts without being written out as text and parsed back.
   */
  private settleResults(): void {
    this.builder.lazyResults = !this.whole && this.followers.length > 0 && this.followers.every((f) => f.keepsNoEvents === true);
  }

  /** Logs a line; `raw` logs it as text whatever it holds, and keeps it out of the episode (a refused line). */
  readonly add = (f: Frame, raw = false): void => {
    this.logged = true;
    this.recorder?.line(f.from, f.tMs, f.bytes, raw);
    if (raw) {
      this.show(f);
      return;
    }
    // Turn followers read the session when they ask for it: only the others need each line read as it is logged.
    if (this.readNow || this.followers.length > this.turnFollowers.length) this.read(f);
    else {
      this.unread.push(f);
      this.unreadBytes += f.bytes.length;
      if (this.unread.length >= MAX_UNREAD_LINES || this.unreadBytes >= MAX_UNREAD_BYTES) {
        this.catchUp();
        this.readNow = true;
      }
    }
    this.show(f);
  };

  /** Hands `f` to whoever watches `frames$` (a Subject's `next` costs, even with no one to hand it to). */
  private show(f: Frame): void {
    if (this.frames.observed) this.frames.next(f);
  }

  /** The session's Episode so far: every event, or none of those handed on when the session keeps no history. */
  episode(): Episode {
    this.catchUp();
    this.readNow = false;
    return this.builder.finish(this.header);
  }

  /** What the Episode holds now (for tests: it stays small in a session that keeps no history). */
  retained(): Retained {
    this.catchUp();
    return { events: this.builder.events.length, calls: this.turn?.calls.length ?? 0 };
  }

  /** The characters of text the Episode's turn inference holds (for specs of memory). */
  keptTextChars(): number {
    this.catchUp();
    return this.builder.keptTextChars();
  }

  end(): void {
    this.frames.complete();
  }

  /** Reads the lines that wait into the Episode, in log order. */
  private catchUp(): void {
    if (this.unread.length === 0) return;
    const lines = this.unread;
    this.unread = [];
    this.unreadBytes = 0;
    for (let i = 0; i < lines.length; i++) {
      this.read(lines[i]!, true);
      // Let each line go as soon as it is read.
      lines[i] = undefined as unknown as Frame;
    }
  }

  /**
   * Reads one logged line into the Episode. It reads what the log will hold: `message` only
   * where the log says so (the writer's rule, on the value a plugin may have parsed already;
   * a line that passed guard mode's strict check reads back by that check). What the
   * Episode would ignore is not parsed. A line read `late` (catching up) does not keep its
   * value on the frame: nothing asks for it again.
   */
  private read(f: Frame, late = false): void {
    // The bytes tell what the Episode would ignore only to spare a parse: none once parsed.
    // (A server's line is told by the calls awaiting an answer alone: its bytes are not asked for.)
    if (f[PARSED] === undefined && (f.from === "server" ? this.builder.awaitsNoAnswer() : this.builder.wantsLine(f.from, f.bytes) === false)) return;
    const value = (late ? jsonOfLate(f) : jsonOf(f)) as Json | undefined;
    if (value !== undefined && this.builder.wants(f.from, value) && (f[CHECKED]?.ok === true || readsBack(value))) {
      // A batch is read message by message (`entry`); one message needs no entry made for it.
      if (Array.isArray(value)) this.builder.entry({ t_ms: f.tMs, from: f.from, message: value });
      else this.builder.message(f.tMs, f.from, value);
      this.handOn();
    }
  }

  /**
   * The new events to the followers, in log order: calls that joined the newest turn (a
   * turn gains calls while any of its calls is in flight, even after later events), then
   * each new event. A session that keeps no history then drops them: the builder only
   * ever appends to its events and to a turn's calls, and reads neither back.
   */
  private handOn(): void {
    if (this.whole && this.followers.length === 0) return;
    const events = this.builder.events;
    this.takeCalls();
    for (; this.next < events.length; this.next++) {
      const e = events[this.next]!;
      if (e.kind === "assistant" && e.text === null) {
        this.turn = e;
        this.turnCalls = 0;
        for (const f of this.turnFollowers) f.turn();
        this.takeCalls();
      } else {
        for (const f of this.followers) f.event(e);
      }
    }
    if (this.whole) return;
    empty(events);
    this.next = 0;
    if (this.turn !== undefined) {
      empty(this.turn.calls);
      this.turnCalls = 0;
    }
  }

  private takeCalls(): void {
    const turn = this.turn;
    if (turn === undefined) return;
    for (; this.turnCalls < turn.calls.length; this.turnCalls++) {
      const c = turn.calls[this.turnCalls]!;
      for (const f of this.followers) f.call(c);
    }
  }
}

/**
 * Empties an array that holds a few items: by `pop`, which keeps its room for the next push,
 * where `length = 0` is a runtime call that also frees the room (about 10× the cost, twice
 * per line a session that keeps no history logs).
 */
function empty(items: unknown[]): void {
  if (items.length > 8) items.length = 0;
  else while (items.length > 0) items.pop();
}
