/**
 * One host session through the real `stretto-proxy` in front of `stretto-mcp-demo --world
 * retail`: the host's lines written one at a time, each answer awaited, as an agent calls.
 */
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { SAME_TURN_MS } from "../../lib/trace/turns.js";
import { DEMO, NODE, PROXY, start } from "../helpers/processes.js";

/** Long enough for two busy shared cores; only a proxy that stops answering waits this long. */
const ANSWER_MS = 30_000;

export interface Answer {
  id?: unknown;
  result?: { content?: Array<{ type: string; text: string }>; isError?: boolean };
}

export interface ServedSession {
  /**
   * Calls `name` and resolves with the answer the host got. Each call after the first waits
   * a little longer than the recorder's same-turn window, as an LLM thinking would, so each
   * is a turn of its own in the session's episode.
   */
  call(name: string, args: object): Promise<Answer>;
  /** Ends the host's side; resolves with the proxy's exit code and stderr. */
  end(): Promise<{ code: number | null; stderr: string }>;
}

/** Starts the proxy with `args` (before `--`), initializes and lists the tools. */
export async function serveSession(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ServedSession> {
  const child = start(NODE, [PROXY, ...args, "--", NODE, DEMO, "--world", "retail"], { env: { ...process.env, ...env } });
  const waiting = new Map<string, (m: Answer) => void>();
  createInterface({ input: child.stdout! }).on("line", (l) => {
    const m = JSON.parse(l) as Answer;
    waiting.get(JSON.stringify(m.id))?.(m);
  });
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  let id = 0;
  const ask = (method: string, params?: unknown): Promise<Answer> => {
    const key = ++id;
    const answer = new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`no answer to ${method} within ${ANSWER_MS} ms; stderr: ${stderr}`));
      }, ANSWER_MS);
      waiting.set(JSON.stringify(key), (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id: key, method, params })}\n`);
    return answer;
  };
  await ask("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "spec-host", version: "0" } });
  child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  await ask("tools/list");
  let calls = 0;
  return {
    call: async (name, args) => {
      if (calls++ > 0) await sleep(SAME_TURN_MS + 100);
      return ask("tools/call", { name, arguments: args });
    },
    end: async () => {
      child.stdin!.end();
      return { code: await exited, stderr };
    },
  };
}
