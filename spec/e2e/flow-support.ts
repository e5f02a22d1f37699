/**
 * What the flow e2e specs share (spec/e2e/flow.spec.ts and flow-arbiter.spec.ts drive the
 * proxy line by line, spec/e2e/flow-sdk.spec.ts through the MCP SDK client): the published
 * flow, the appendix header, a line-by-line host, the proxy flags that make the habit
 * decider look things up, and readers for the session log and the flow log beside it.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { FIXTURE_PATH as FLOW, requireFixture } from "../flow/flow-fixture.js";
import { readLogLines, sessionLogs } from "../helpers/processes.js";

/** The published flow, learned from five retail sessions; `requireFixture(this)` skips a suite without it. */
export { FLOW, requireFixture };
/** The appendix's first line, spelled out here so that a change in lib/ shows (agents read it). */
export const APPENDIX = "--- Also looked up automatically (current results; no need to repeat these calls) ---";

/** An answer as the host reads it. */
export type Msg = { id?: unknown; result?: { content?: Array<{ type: string; text: string }>; isError?: boolean } };

/** Drives the proxy as an MCP host would, a JSON line at a time, answers matched by id. */
export class Host {
  private readonly waiting = new Map<string, (m: Msg) => void>();
  stderr = "";
  readonly exit: Promise<number | null>;
  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on("line", (l) => {
      const m = JSON.parse(l) as Msg;
      this.waiting.get(JSON.stringify(m.id))?.(m);
    });
    child.stderr!.on("data", (c: Buffer) => (this.stderr += c.toString()));
    this.exit = new Promise((r) => child.once("exit", (code) => r(code)));
  }
  ask(id: number | string, method: string, params?: unknown): Promise<Msg> {
    const answer = new Promise<Msg>((r) => this.waiting.set(JSON.stringify(id), r));
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return answer;
  }
  async start(): Promise<void> {
    await this.ask(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } });
    await this.ask(2, "tools/list");
  }
  /** The agent's call; by default `find_user_id_by_email` for user_7, where the flow looks the user up. */
  call(id: number | string, name = "find_user_id_by_email", args: object = { email: "c7@example.com" }): Promise<Msg> {
    return this.ask(id, "tools/call", { name, arguments: args });
  }
  end(): Promise<number | null> {
    this.child.stdin!.end();
    return this.exit;
  }
}

/** One JSON line of a flow log. */
export type Line = Record<string, unknown>;

/** A tool result as a session log holds it. */
export interface LoggedResult {
  content?: Array<{ type: string; text?: string }>;
  isError?: boolean;
}
/** A JSON-RPC message as a session log holds it. */
export interface LoggedMessage {
  id?: unknown;
  method?: string;
  params?: { name: string; arguments: Record<string, unknown> };
  result?: LoggedResult;
}
/** A session log entry: who sent it, and the message when the line was JSON. */
export interface LogEntry {
  from: string;
  message?: LoggedMessage;
}
export type MessageEntry = LogEntry & { message: LoggedMessage };

/**
 * The proxy flags for the flow in front of the demo: recording to `dir`, the habit decider
 * (no key needed) and a threshold of 0.1, low enough that after find_user_id_by_email the
 * flow looks up get_user_details (0.25 × a binding chance of 0.75).
 */
export function flowFlags(dir: string, extra: readonly string[] = [], flow = FLOW): string[] {
  return ["--record", dir, "--flow", flow, "--flow-decider", "habit", "--flow-threshold", "0.1", ...extra];
}

export const jsonl = (path: string): Line[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Line);

/** The one flow log in `dir` (`<session>.flow.jsonl`, beside the session log). */
export function flowLog(dir: string): { path: string; lines: Line[] } {
  const name = readdirSync(dir).find((f) => f.endsWith(".flow.jsonl"));
  assert.ok(name, "a flow log beside the session log");
  return { path: join(dir, name), lines: jsonl(join(dir, name)) };
}

/** The entries of the one session log in `dir`. */
export const logEntries = (dir: string): LogEntry[] => readLogLines(sessionLogs(dir)[0]!).entries.map((l) => JSON.parse(l) as LogEntry);

/** The proxy's own `tools/call`s (the flow's lookups), in the order it sent them. */
export const ownRequests = (dir: string): MessageEntry[] =>
  logEntries(dir).filter((e): e is MessageEntry => e.from === "proxy" && e.message?.method === "tools/call");
