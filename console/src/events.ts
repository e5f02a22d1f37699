// One EventSource for the whole app: `changed` refreshes pages, `job` carries job updates.
// It reconnects after 1 s, doubling to 30 s.
import { reactive } from "vue";
import type { ChangedEvent as Changed, Job } from "./types";

export type LiveStatus = "Live" | "Connecting" | "Reconnecting" | "Offline";

export const live = reactive<{ status: LiveStatus }>({ status: "Connecting" });

type ChangedListener = (c: Changed) => void;
type JobListener = (j: Job) => void;
const changedListeners = new Set<ChangedListener>();
const jobListeners = new Set<JobListener>();

let source: EventSource | null = null;
let delay = 1000;
let failures = 0;

function parse<T>(data: unknown): T | null {
  try {
    return JSON.parse(String(data)) as T;
  } catch {
    return null;
  }
}

export function connect(): void {
  source?.close();
  const es = new EventSource("/api/events");
  source = es;
  es.onopen = () => {
    live.status = "Live";
    delay = 1000;
    failures = 0;
  };
  es.addEventListener("changed", (ev) => {
    const c = parse<Changed>((ev as MessageEvent).data);
    if (c) for (const l of changedListeners) l(c);
  });
  es.addEventListener("job", (ev) => {
    const j = parse<Job>((ev as MessageEvent).data);
    if (j) for (const l of jobListeners) l(j);
  });
  es.onerror = () => {
    es.close();
    if (source !== es) return;
    failures += 1;
    live.status = failures > 3 ? "Offline" : "Reconnecting";
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 30000);
  };
}

export function onChanged(l: ChangedListener): () => void {
  changedListeners.add(l);
  return () => changedListeners.delete(l);
}

export function onJob(l: JobListener): () => void {
  jobListeners.add(l);
  return () => jobListeners.delete(l);
}
