import { BehaviorSubject, Observable, distinctUntilChanged, map } from "./rx.js";

/**
 * Backpressure between sinks and the source that feeds them. A sink whose writable says
 * "full" holds the valve; it releases it on `drain`. The source pauses while any hold is
 * outstanding, so memory stays bounded by one read chunk per direction.
 */
export class Pressure {
  private readonly holds = new BehaviorSubject(0);

  /** True while the source should stay paused. */
  readonly paused$: Observable<boolean> = this.holds.pipe(
    map((n) => n > 0),
    distinctUntilChanged(),
  );

  hold(): void {
    this.holds.next(this.holds.value + 1);
  }

  release(): void {
    if (this.holds.value > 0) this.holds.next(this.holds.value - 1);
  }

  get isPaused(): boolean {
    return this.holds.value > 0;
  }
}
