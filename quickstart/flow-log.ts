/**
 * The flow's decisions after one call, read back from the flow log the proxy writes beside
 * the session log (`<session>.flow.jsonl`): one line per decision, then a run line.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

interface Decision {
  action: "lookup" | "hand_back";
  address: string;
  after: unknown;
  site: string | null;
  tool?: string;
  arguments?: Record<string, unknown>;
  reason?: string;
  prob: number | null;
  binding: number | null;
}

/** The only flow log in a record folder that holds one session. */
export function flowLogIn(dir: string): string {
  const logs = readdirSync(dir).filter((f) => f.endsWith(".flow.jsonl"));
  if (logs.length !== 1) throw new Error(`expected one flow log in ${dir}, found ${logs.length}`);
  return join(dir, logs[0]!);
}

/** The decisions of the flow's first run: the lines before the first run line. */
export function firstRunDecisions(flowLog: string): Decision[] {
  const lines = readFileSync(flowLog, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const end = lines.findIndex((l) => "run" in l);
  const run = lines[end]?.run as { call: string } | undefined;
  if (run === undefined) throw new Error(`${flowLog} has no run`);
  const after = lines[end]!.after;
  return lines.slice(0, end).filter((l) => l.after === after) as unknown as Decision[];
}

const two = (p: number | null): string => (p === null ? "?" : p.toFixed(2));

/** One decision as a line a newcomer can read: what the flow did, and by what odds. */
export function describe(d: Decision): string {
  const at = `${d.address} at ${d.site ?? "?"}`;
  if (d.action === "hand_back") return `${at}: hands back (${d.reason ?? "?"})`;
  return `${at}: looks up ${d.tool} ${JSON.stringify(d.arguments ?? {})} (${two(d.prob)} × ${two(d.binding)})`;
}
