/**
 * Memory shared with the recorder's writer thread, reused for every line of a session, and
 * the few words the threads coordinate through.
 *
 * The proxy copies each line into the ring as it passes (hand-over.ts lays it out) and
 * moves `TAIL`; that is all it does per line: no message, no timer, no wake-up. Waking a
 * sleeping thread on this kind of VM costs the waker 25–45 µs (a message to a worker as
 * much), which at one request in flight sits on every round trip's path. Instead the writer
 * thread wakes itself every few milliseconds, takes what is there, and moves `HEAD` once it
 * is written, so the proxy may reuse it. The proxy wakes it only when it naps with a
 * quarter of the ring waiting (WAKE_SHARE), or when it had gone to sleep after a quiet
 * spell (`STATE`), and then only after the turn's lines are forwarded.
 *
 * One writer thread serves every log of the process (writer-thread.ts): each log has its
 * own ring, `TAIL` and `HEAD`; the thread's `WAKE` and `STATE` are one signal
 * ({@link newSignal}) that all its rings share.
 *
 * Fresh memory per hand-over was what recording used to cost most (on a small VM, touching
 * a new megabyte takes ~8 ms, copying into one already touched ~0.1 ms), hence one ring for
 * the session. When it is full a line waits, held by reference, for the writer to give room
 * back (held-records.ts), and only then, if it must, goes in a buffer of its own:
 * forwarding never waits.
 */
import { type Parts, RECORD_HEAD, Records, WRAP, recordSize } from "./hand-over.js";

/** In a ring's control words: where the proxy's records end (it alone moves it). */
const TAIL = 0;
/** In a ring's control words: where the writer's unwritten records begin (it alone moves it). */
const HEAD = 1;
/** In the thread's signal: set to 1 (and notified) to wake the writer now. */
const WAKE = 0;
/** In the thread's signal: what the writer is doing: AWAKE, NAPPING (back within BATCH_MS) or SLEEPING (until woken). */
const STATE = 1;
const AWAKE = 0;
const NAPPING = 1;
const SLEEPING = 2;

/** The memory of a writer thread's signal (`WAKE`, `STATE`), shared by all its rings. */
export function newSignal(): SharedArrayBuffer {
  return new SharedArrayBuffer(8);
}

/**
 * The share of the ring (a quarter) that may wait before a napping writer is woken rather
 * than left to its next round. Only so the ring does not fill (a full ring costs the proxy
 * fresh buffers): each wake-up costs the forwarding thread an `Atomics.notify`, and a
 * waking writer takes a core the host and server want next. At 256 KiB (a core's cache)
 * a 64 KiB exchange woke the writer every other round trip; the forwarding thread spent
 * about 38 µs a round trip in the notify, and, alternated with this in the same minutes,
 * `--record` ran at 0.48–0.53× the bare relay against 0.76–0.77× (docs/session-log.md).
 */
const WAKE_SHARE = 4;

/** How far ahead of the proxy's records the writer touches the ring's pages. */
const TOUCH_AHEAD = 1024 * 1024;

/** The proxy's side: appends records, never waits. */
export class LineRing {
  readonly records: SharedArrayBuffer;
  readonly control: SharedArrayBuffer;
  private readonly mem: Records;
  private readonly ctrl: Int32Array;
  private readonly signal: Int32Array;
  private tail = 0;
  /** How far the writer may lag before a napping writer is woken (WAKE_SHARE). */
  private readonly wakeLag: number;
  /** Where the records before the last wrap end: the writer goes on at 0 from there. */
  private wrappedAt = 0;

  /** `signal`: the writer thread's ({@link newSignal}), shared with the other rings it reads. */
  constructor(
    readonly size: number,
    signal: SharedArrayBuffer = newSignal(),
  ) {
    this.records = new SharedArrayBuffer(size);
    this.control = new SharedArrayBuffer(8);
    this.mem = new Records(this.records);
    this.ctrl = new Int32Array(this.control);
    this.signal = new Int32Array(signal);
    this.wakeLag = Math.floor(size / WAKE_SHARE);
  }

  /** Where the records appended so far end: a point in the order of everything handed over. */
  get end(): number {
    return this.tail;
  }

  /** Copies one record in; false when there is no room for it (the writer is far behind). */
  append(tMs: number, flags: number, parts: Parts, length: number): boolean {
    const n = recordSize(length);
    const head = Atomics.load(this.ctrl, HEAD);
    const size = this.size;
    let at = this.tail;
    // The tail never comes round to the head: equal means empty. An empty ring a quarter
    // along starts over at 0, so a session that is not pressed keeps to its first pages.
    // (Only the writer moves past a wrap; until it does, the room is what lies before it.)
    if (at === head && at >= size >> 2 && n < head) {
      if (size - at >= RECORD_HEAD) this.mem.putWrap(at);
      this.wrappedAt = at;
      at = 0;
    } else if (at >= head) {
      if (size - at < n || (at + n === size && head === 0)) {
        if (n >= head) return false;
        if (size - at >= RECORD_HEAD) this.mem.putWrap(at);
        this.wrappedAt = at;
        at = 0;
      }
    } else if (head - at <= n) {
      return false;
    }
    this.mem.put(at, tMs, flags, parts, length);
    at += n;
    if (at === size) {
      this.wrappedAt = size;
      at = 0;
    }
    this.tail = at;
    Atomics.store(this.ctrl, TAIL, at);
    // Woken only from a nap and a quarter of the ring behind, or from its sleep; a writer
    // already at work is left to it. (Missed by a hair as it lies down, it is woken on the next line.)
    const state = Atomics.load(this.signal, STATE);
    if (state === SLEEPING || (state === NAPPING && (at >= head ? at - head : this.wrappedAt - head + at) >= this.wakeLag)) {
      if (Atomics.compareExchange(this.signal, STATE, state, AWAKE) === state) this.wakeSoon();
    }
    return true;
  }

  /**
   * Wakes the writer once this turn's lines are on their way: the notify costs the thread
   * that sends it tens of µs, which the line being forwarded need not wait for. (The writer
   * stays asleep until then: its state already says awake, so no other line wakes it.) Also
   * when the ring is full and lines start to wait for room.
   */
  wakeSoon(): void {
    if (this.wakePending) return;
    this.wakePending = true;
    setImmediate(this.wakeNow);
  }

  private wakePending = false;
  private readonly wakeNow = (): void => {
    this.wakePending = false;
    this.wake();
  };

  /** Wakes the writer thread now (a message for it, or much to write). */
  wake(): void {
    wakeWriter(this.signal);
  }
}

/** Wakes the writer thread whose signal this is. */
export function wakeWriter(signal: Int32Array): void {
  Atomics.store(signal, WAKE, 1);
  Atomics.notify(signal, WAKE);
}

/** The writer thread's side: reads records in order and gives their room back once written. */
export class RingReader {
  readonly mem: Records;
  private readonly ctrl: Int32Array;
  private readonly size: number;
  /** Where the next record to read is. */
  private at = 0;
  /** The ring's pages before this are touched. */
  private touched = 0;

  constructor(records: SharedArrayBuffer, control: SharedArrayBuffer) {
    this.mem = new Records(records);
    this.ctrl = new Int32Array(control);
    this.size = records.byteLength;
  }

  /**
   * Touches the ring's pages up to TOUCH_AHEAD past `tail`, once each, off the forwarding
   * thread: the memory is fresh, and the first write to a page costs a fault (8 MiB took
   * about 30 ms here) that would otherwise fall on the proxy as its lines first reach it.
   * Only as far as the lines go, so a quiet session keeps a few pages. Adding 0 leaves a
   * record the proxy is writing meanwhile as it is.
   */
  touchAhead(tail: number): void {
    const to = Math.min(this.size, tail + TOUCH_AHEAD);
    if (to <= this.touched) return;
    const words = new Int32Array(this.mem.buffer, this.touched, (to - this.touched) >> 2);
    for (let i = 0; i < words.length; i += 1024) Atomics.add(words, i, 0);
    this.touched = to;
  }

  /** Where the proxy's records end now. */
  tail(): number {
    return Atomics.load(this.ctrl, TAIL);
  }

  /** Bytes from `from` to `to` going round the ring (a wrap's unused end counted in). */
  distance(from: number, to: number): number {
    return (to - from + this.size) % this.size;
  }

  /**
   * The offset of the record at `pos` (past a wrap), or -1 when `pos` is `until`. Starting
   * from `start` and stepping with `after`, it walks the records without taking them.
   */
  record(pos: number, until: number): number {
    if (pos === until) return -1;
    if (this.size - pos < RECORD_HEAD || (this.mem.flags(pos) & WRAP) !== 0) return until === 0 ? -1 : 0;
    return pos;
  }

  /** Where the record after the one at `at` is. */
  after(at: number): number {
    const next = at + recordSize(this.mem.length(at));
    return next === this.size ? 0 : next;
  }

  /** Where the next record to take is. */
  get start(): number {
    return this.at;
  }

  /** Everything before `pos` is written: the proxy may reuse its room. */
  release(pos: number): void {
    this.at = pos;
    Atomics.store(this.ctrl, HEAD, pos);
  }
}

/** The writer thread's side of its signal: it naps, or sleeps until a proxy wakes it. */
export class WriterSignal {
  private readonly words: Int32Array;

  constructor(signal: SharedArrayBuffer) {
    this.words = new Int32Array(signal);
  }

  /** Waits up to `ms` for a wake-up. */
  nap(ms: number): void {
    Atomics.store(this.words, STATE, NAPPING);
    Atomics.wait(this.words, WAKE, 0, ms);
    Atomics.store(this.words, STATE, AWAKE);
    Atomics.store(this.words, WAKE, 0);
  }

  /**
   * Sleeps until woken: a proxy's next line does it. `quiet` is asked once the state says
   * asleep: false when a line came after the rings were last read, and then it returns at
   * once, so no line waits for a wake-up that was never sent.
   */
  sleep(quiet: () => boolean): void {
    Atomics.store(this.words, STATE, SLEEPING);
    if (quiet()) Atomics.wait(this.words, WAKE, 0);
    Atomics.store(this.words, STATE, AWAKE);
    Atomics.store(this.words, WAKE, 0);
  }
}
