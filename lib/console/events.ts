/**
 * What changed in the data directory, for GET /api/events: a look every second at the
 * (size, mtime) stamps of the sessions (with their side logs), the flows (with their stage
 * state), servers.json and the jobs' files, only while a client listens. The first look is
 * the baseline; each later one sends the keys added, changed or removed, one event per kind.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Subject } from "rxjs";
import type { ChangedEvent } from "./api-types.js";
import { scanCatalog, stampOf } from "./catalog.js";

type Stamps = Map<string, string>;

const stamp = (...paths: (string | undefined)[]) => paths.map((p) => JSON.stringify(stampOf(p) ?? null)).join("|");

async function look(data: string): Promise<Record<ChangedEvent["what"], Stamps>> {
  const c = await scanCatalog(data);
  const sessions: Stamps = new Map(c.sessions.map((s) => [s.key, stamp(s.abs, s.flowLog, s.confirmLog)]));
  const flows: Stamps = new Map(c.flows.map((f) => [f.key, stamp(f.abs, f.abs.replace(/(\.staged)?\.flow\.json$/, ".stage.json"))]));
  const jobs: Stamps = new Map();
  const dir = join(data, "console", "jobs");
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    // No jobs yet.
  }
  for (const n of names) if (!n.startsWith(".") && n.endsWith(".json") && n.split(".").length === 3) jobs.set(n.slice(0, -".json".length), stamp(join(dir, n)));
  const servers: Stamps = new Map([["servers.json", stamp(join(data, "servers.json"))]]);
  return { sessions, flows, jobs, servers };
}

function diff(a: Stamps, b: Stamps): string[] {
  const keys = new Set<string>();
  for (const [k, v] of b) if (a.get(k) !== v) keys.add(k);
  for (const k of a.keys()) if (!b.has(k)) keys.add(k);
  return [...keys].sort();
}

export class Watcher {
  readonly changed = new Subject<ChangedEvent>();
  private listeners = 0;
  private timer: NodeJS.Timeout | undefined;
  private last: Awaited<ReturnType<typeof look>> | undefined;
  private looking = false;

  constructor(
    private readonly data: string,
    private readonly everyMs = 1000,
  ) {}

  /** A client listens; the returned function says it stopped. */
  listen(): () => void {
    this.listeners++;
    if (this.timer === undefined) {
      this.last = undefined;
      void this.tick();
      this.timer = setInterval(() => void this.tick(), this.everyMs);
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.listeners === 0 && this.timer !== undefined) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  private async tick(): Promise<void> {
    if (this.looking) return;
    this.looking = true;
    try {
      const now = await look(this.data);
      const before = this.last;
      this.last = now;
      if (before === undefined) return;
      for (const what of ["sessions", "flows", "jobs", "servers"] as const) {
        const keys = diff(before[what], now[what]);
        if (keys.length > 0) this.changed.next({ what, keys });
      }
    } catch {
      // A file that went while it was looked at: the next look sees it gone.
    } finally {
      this.looking = false;
    }
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
