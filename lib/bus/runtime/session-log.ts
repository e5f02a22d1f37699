import { Subject, type Observable } from "../rx.js";
import type { Frame } from "../frame.js";
import { readsBack } from "../../protocol/reads-back.js";
import type { RecordSink } from "../record-port.js";
import type { Episode } from "../../trace/episode-types.js";
import type { Json } from "../../trace/json.js";
import type { LogHeader } from "../../trace/log-types.js";
import { EpisodeBuilder } from "../../trace/turns.js";
import { jsonOf } from "./json-rpc.js";

/**
 * The active session's log: every line, in the order it is logged, goes to the recorder
 * (with --record), to the session's Episode (kept incrementally, so a decision costs the
 * same at the 10 000th call as at the 10th), and to `frames$` for plugins that watch.
 */
export class SessionLog {
  private readonly builder = new EpisodeBuilder();
  private readonly frames = new Subject<Frame>();
  readonly frames$: Observable<Frame> = this.frames.asObservable();

  constructor(
    private readonly header: LogHeader,
    private readonly recorder: RecordSink | undefined,
  ) {}

  /** Logs a line; `raw` logs it as text whatever it holds, and keeps it out of the episode (a refused line). */
  readonly add = (f: Frame, raw = false): void => {
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
    }
    this.frames.next(f);
  };

  episode(): Episode {
    return this.builder.finish(this.header);
  }

  end(): void {
    this.frames.complete();
  }
}
