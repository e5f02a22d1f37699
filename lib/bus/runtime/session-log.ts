import { Subject, type Observable } from "../rx.js";
import type { Frame } from "../frame.js";
import { readsBack } from "../../protocol/reads-back.js";
import type { RecordSink } from "../record-port.js";
import type { AssistantEvent, Episode } from "../../trace/episode-types.js";
import type { Json } from "../../trace/json.js";
import type { LogHeader } from "../../trace/log-types.js";
import { EpisodeBuilder } from "../../trace/turns.js";
import type { EpisodeFollower } from "./api.js";
import { jsonOf } from "./json-rpc.js";

/**
 * How much text turn inference keeps, each of what the current turn returned and what came
 * before it, in a session that keeps no history (the latest 64 Ki characters of each). No follower sees
 * turns (calls come one by one), so the window changes nothing a plugin reads.
 */
export const KEPT_TEXT_CHARS = 1 << 16;

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
 * The Episode keeps every event unless the session says, before its first line, that no
 * plugin reads it whole (`keepWhole(false)`): then each event is handed to the followers
 * and dropped, and turn inference keeps a bounded window of text, so a session of a
 * million calls runs in flat memory (docs/session-memory.md). The log on disk keeps it all.
 */
export class SessionLog {
  private builder = new EpisodeBuilder();
  private whole = true;
  private logged = false;
  private readonly frames = new Subject<Frame>();
  readonly frames$: Observable<Frame> = this.frames.asObservable();
  private readonly followers: EpisodeFollower[] = [];
  /** The next event to hand on; the newest turn of calls (only it gains calls) and how many of them were handed on. */
  private next = 0;
  private turn: AssistantEvent | undefined;
  private turnCalls = 0;

  constructor(
    private readonly header: LogHeader,
    private readonly recorder: RecordSink | undefined,
  ) {}

  /** Whether the Episode keeps every event (the default); say so before the first line. */
  keepWhole(whole: boolean): void {
    if (this.logged) throw new Error("SessionLog.keepWhole: the session has logged lines already");
    this.whole = whole;
    this.builder = new EpisodeBuilder(whole ? {} : { textChars: KEPT_TEXT_CHARS });
  }

  /** Hands `follower` each event of the Episode from now on, in log order, as it is made. */
  follow(follower: EpisodeFollower): void {
    this.followers.push(follower);
  }

  /** Logs a line; `raw` logs it as text whatever it holds, and keeps it out of the episode (a refused line). */
  readonly add = (f: Frame, raw = false): void => {
    this.logged = true;
    this.recorder?.line(f.from, f.tMs, f.bytes, raw);
    if (raw) {
      this.frames.next(f);
      return;
    }
    // The episode reads what the log will hold: `message` only where the log says so
    // (the same rule as the writer's, on the value plugins already had parsed). What the
    // episode would ignore is not walked.
    const value = this.builder.wantsLine(f.from, f.bytes) === false ? undefined : (jsonOf(f) as Json | undefined);
    if (value !== undefined && this.builder.wants(f.from, value) && readsBack(value)) {
      this.builder.entry({ t_ms: f.tMs, from: f.from, message: value });
      this.handOn();
    }
    this.frames.next(f);
  };

  /** The session's Episode so far: every event, or none of those handed on when the session keeps no history. */
  episode(): Episode {
    return this.builder.finish(this.header);
  }

  /** What the Episode holds now (for tests: it stays small in a session that keeps no history). */
  retained(): Retained {
    return { events: this.builder.events.length, calls: this.turn?.calls.length ?? 0 };
  }

  end(): void {
    this.frames.complete();
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
        this.takeCalls();
      } else {
        for (const f of this.followers) f.event(e);
      }
    }
    if (this.whole) return;
    events.length = 0;
    this.next = 0;
    if (this.turn !== undefined) {
      this.turn.calls.length = 0;
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
