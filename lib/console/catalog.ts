/**
 * What the data directory holds, as `stretto doctor` scans it (three levels down): session
 * logs with the flow and confirm logs beside them, and flows, each with its key. The
 * console's own `console/` folder is left out, and so is any file a symbolic link leads out
 * of the directory to (or nowhere).
 */
import { existsSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { scanData } from "../doctor/scan.js";
import { inside, resolvesInside } from "./data-paths.js";
import { keysFor } from "./keys.js";

export interface FileStamp {
  size: number;
  mtimeMs: number;
}

export interface SessionFile {
  key: string;
  abs: string;
  /** Relative to the data directory, '/'-separated. */
  rel: string;
  flowLog: string | undefined;
  confirmLog: string | undefined;
}

export interface FlowFile {
  key: string;
  abs: string;
  rel: string;
  /** The file name without `.flow.json`. */
  name: string;
}

export interface Catalog {
  sessions: SessionFile[];
  flows: FlowFile[];
}

export function stampOf(path: string | undefined): FileStamp | undefined {
  if (path === undefined) return undefined;
  try {
    const s = statSync(path);
    return { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return undefined;
  }
}

export const relOf = (abs: string, data: string) => relative(data, abs).split(sep).join("/");

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();

/** The logs a proxy writes beside a session log: its flow log and its confirm log. */
export function sideLogs(abs: string, data: string): { flowLog: string | undefined; confirmLog: string | undefined } {
  const stem = abs.slice(0, -".jsonl".length);
  const side = (p: string) => (isFile(p) && resolvesInside(p, data) ? p : undefined);
  return { flowLog: side(`${stem}.flow.jsonl`), confirmLog: side(`${stem}.confirm.jsonl`) };
}

export async function scanCatalog(data: string): Promise<Catalog> {
  const scanned = await scanData(data);
  const own = join(data, "console");
  const kept = (p: string) => !inside(p, own) && resolvesInside(p, data) && isFile(p);
  const logs = [...scanned.sessions.values()].flat().filter(kept);
  const flowPaths = scanned.flows.filter(kept);
  const logRels = logs.map((abs) => ({ rel: relOf(abs, data), stem: basename(abs).slice(0, -".jsonl".length) }));
  const logKeys = keysFor(logRels);
  const flowRels = flowPaths.map((abs) => ({ rel: relOf(abs, data), stem: basename(abs).slice(0, -".flow.json".length) }));
  const flowKeys = keysFor(flowRels, new Set(["diff"]));
  return {
    sessions: logs.map((abs, i) => ({ key: logKeys[i]!, abs, rel: logRels[i]!.rel, ...sideLogs(abs, data) })),
    flows: flowPaths.map((abs, i) => ({ key: flowKeys[i]!, abs, rel: flowRels[i]!.rel, name: flowRels[i]!.stem })),
  };
}
