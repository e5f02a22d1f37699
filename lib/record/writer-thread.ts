/**
 * The process's one writer thread (record-worker.ts), shared by every log it records: it
 * starts with the first log and ends with the last. A listener's sessions each record a
 * log, and a thread each cost about 11 MiB a session (docs/listen.md); one thread writes
 * them all, each log keeping its own ring (line-ring.ts), file and messages.
 */
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import { newSignal, wakeWriter } from "./line-ring.js";
import type { FromWriter, NewLog } from "./record-messages.js";

/** What a log hears of the thread: what the thread says of it, or that the thread failed or ended. */
export type ThreadNews = FromWriter | { kind: "failed"; message: string } | { kind: "exited" };

export class WriterThread {
  private static current: WriterThread | undefined;

  /** The thread's signal (`WAKE`, `STATE`), shared by the rings of its logs. */
  readonly signal = newSignal();
  private readonly words = new Int32Array(this.signal);
  private readonly worker: Worker;
  /** Where new logs are announced. */
  private readonly logsPort: MessagePort;
  private readonly logs = new Map<number, (news: ThreadNews) => void>();
  private nextId = 1;

  /** The thread logs are written on now, started if there is none. */
  static shared(): WriterThread {
    return (WriterThread.current ??= new WriterThread());
  }

  private constructor() {
    const { port1, port2 } = new MessageChannel();
    this.logsPort = port1;
    this.worker = new Worker(new URL("./record-worker.js", import.meta.url), {
      workerData: { signal: this.signal, logs: port2 },
      transferList: [port2],
    });
    this.worker.on("message", (m: FromWriter) => this.logs.get(m.id)?.(m));
    this.worker.on("error", (err) => this.gone({ kind: "failed", message: err.message }));
    this.worker.on("exit", () => this.gone({ kind: "exited" }));
  }

  /** Starts writing a log (its messages come on `log.port`); `hear` is told what becomes of it. */
  add(log: Omit<NewLog, "id">, hear: (news: ThreadNews) => void): number {
    const id = this.nextId++;
    this.logs.set(id, hear);
    this.logsPort.postMessage({ ...log, id } satisfies NewLog, [log.port]);
    wakeWriter(this.words);
    return id;
  }

  /** The thread has let the log go: with its last log, the thread ends. */
  release(id: number): void {
    this.logs.delete(id);
    if (this.logs.size > 0) return;
    this.forget();
    this.logsPort.close();
    void this.worker.terminate();
  }

  private forget(): void {
    if (WriterThread.current === this) WriterThread.current = undefined;
  }

  /** The thread failed or ended: every log it had is told, and the next log starts a new one. */
  private gone(news: ThreadNews): void {
    this.forget();
    const told = [...this.logs.values()];
    this.logs.clear();
    for (const hear of told) hear(news);
  }
}
