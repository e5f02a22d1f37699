/**
 * The data directory as the console reads it: the catalog, each session and flow parsed once
 * and kept while its files' (size, mtime) stamps stay the same (a session's flow and confirm
 * logs count too), and entries for files gone dropped.
 */
import { existsSync, lstatSync, mkdirSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { LogReadError } from "../trace/index.js";
import { errorText } from "../util/error-text.js";
import { osErrorText } from "../util/os-errors.js";
import { scanCatalog, stampOf, type Catalog, type FlowFile, type SessionFile } from "./catalog.js";
import { relOf } from "./catalog.js";
import { inside } from "./data-paths.js";
import { loadFlowFile, type LoadedFlow } from "./flow-views.js";
import { ApiFailure } from "./http-kit.js";
import { parseSession, type ParsedSession } from "./session-view.js";

export interface Unreadable {
  file: SessionFile;
  error: string;
}

const stampKey = (...paths: (string | undefined)[]) => paths.map((p) => JSON.stringify(stampOf(p) ?? null)).join("|");

export class Store {
  private sessionCache = new Map<string, { stamp: string; parsed: ParsedSession | Unreadable }>();
  private flowCache = new Map<string, { stamp: string; loaded: LoadedFlow }>();

  constructor(readonly data: string) {}

  catalog(): Promise<Catalog> {
    return scanCatalog(this.data);
  }

  async session(file: SessionFile): Promise<ParsedSession | Unreadable> {
    const stamp = stampKey(file.abs, file.flowLog, file.confirmLog);
    const hit = this.sessionCache.get(file.abs);
    if (hit !== undefined && hit.stamp === stamp && sameKey(hit.parsed, file)) return hit.parsed;
    let parsed: ParsedSession | Unreadable;
    try {
      parsed = await parseSession(file);
    } catch (e) {
      if (!(e instanceof LogReadError)) throw e;
      parsed = { file, error: errorText(e) };
    }
    this.sessionCache.set(file.abs, { stamp, parsed });
    return parsed;
  }

  /** Every session (readable or not), and the cache pruned to the files there are. */
  async sessions(catalog?: Catalog): Promise<(ParsedSession | Unreadable)[]> {
    const c = catalog ?? (await this.catalog());
    const out: (ParsedSession | Unreadable)[] = [];
    for (const f of c.sessions) out.push(await this.session(f));
    const there = new Set(c.sessions.map((f) => f.abs));
    for (const k of this.sessionCache.keys()) if (!there.has(k)) this.sessionCache.delete(k);
    return out;
  }

  flow(file: FlowFile): LoadedFlow {
    const stamp = stampKey(file.abs);
    const hit = this.flowCache.get(file.abs);
    if (hit !== undefined && hit.stamp === stamp && hit.loaded.file.key === file.key) return hit.loaded;
    const loaded = loadFlowFile(file);
    this.flowCache.set(file.abs, { stamp, loaded });
    return loaded;
  }

  async flows(catalog?: Catalog): Promise<LoadedFlow[]> {
    const c = catalog ?? (await this.catalog());
    const there = new Set(c.flows.map((f) => f.abs));
    for (const k of this.flowCache.keys()) if (!there.has(k)) this.flowCache.delete(k);
    return c.flows.map((f) => this.flow(f));
  }

  /** Moves files of the data directory to `console/trash/{now}/{relative path}`; nothing is unlinked. */
  trash(paths: readonly string[], now = Date.now()): void {
    const root = join(this.data, "console", "trash", String(now));
    for (const abs of paths) {
      if (!inside(abs, this.data) || lstatSync(abs).isSymbolicLink()) throw new ApiFailure(403, "only files in the data directory go to the trash");
    }
    for (const abs of paths) {
      if (!existsSync(abs)) continue;
      const rel = relOf(abs, this.data);
      const to = join(root, rel);
      try {
        mkdirSync(dirname(to), { recursive: true });
      } catch (e) {
        throw new ApiFailure(500, `creating the trash: ${osErrorText(e)}`);
      }
      try {
        renameSync(abs, to);
      } catch (e) {
        throw new ApiFailure(500, `moving ${rel} to the trash: ${osErrorText(e)}`);
      }
    }
  }
}

export const isUnreadable = (s: ParsedSession | Unreadable): s is Unreadable => "error" in s;

function sameKey(p: ParsedSession | Unreadable, file: SessionFile): boolean {
  return p.file.key === file.key && p.file.flowLog === file.flowLog && p.file.confirmLog === file.confirmLog;
}
