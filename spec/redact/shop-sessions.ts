/**
 * Real sessions to redact: customers of `stretto-mcp-demo --world retail` served through
 * `stretto-proxy --record --guards --commit --context`, so the logs hold the conversation,
 * a refusal, commit reports and, with a flow, its appended lookups, as the proxy wrote them.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { DEMO, NODE, PROXY, start } from "../helpers/processes.js";

/** Long enough for two busy shared cores. */
const ANSWER_MS = 30000;

type Msg = { id?: unknown; result?: { content?: Array<{ text: string }>; isError?: boolean } };

/**
 * Serves customer `n` in one recorded session (one proxy run) into `dir`, the conversation
 * in `contextDir`. Odd customers cancel `#WNa` (first with a reason the guards refuse, then
 * through stretto_commit once they confirm); even ones ask how their orders stand.
 */
export async function serveCustomer(dir: string, contextDir: string, n: number, extra: readonly string[] = []): Promise<void> {
  const context = join(contextDir, `c${n}.jsonl`);
  const say = (role: string, content: string) => appendFileSync(context, `${JSON.stringify({ role, content })}\n`);
  writeFileSync(context, "");
  const child = start(NODE, [PROXY, "--record", dir, "--domain", "retail", "--guards", "--commit", "--context", context, ...extra, "--", NODE, DEMO, "--world", "retail"], {
    env: { ...process.env, STRETTO_SESSION: `host-c${n}` },
  });
  const waiting = new Map<string, (m: Msg) => void>();
  createInterface({ input: child.stdout! }).on("line", (l) => {
    const m = JSON.parse(l) as Msg;
    waiting.get(JSON.stringify(m.id))?.(m);
  });
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  let id = 0;
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  const ask = (method: string, params?: unknown): Promise<Msg> => {
    const key = ++id;
    const answer = new Promise<Msg>((resolve, reject) => {
      // A proxy that stops answering fails the session with what it said, not the hook's timeout.
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`customer ${n}: no answer to ${method} within ${ANSWER_MS} ms; stderr: ${stderr}`));
      }, ANSWER_MS);
      waiting.set(JSON.stringify(key), (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id: key, method, params })}\n`);
    return answer;
  };
  const call = (name: string, args: object) => ask("tools/call", { name, arguments: args });

  await ask("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "spec-host", version: "0" } });
  await ask("tools/list");
  const cancels = n % 2 === 1;
  say("user", cancels ? `Hi, I'm c${n}@example.com. Please cancel #W${n}a.` : `Hi, I'm c${n}@example.com. How do my orders stand?`);
  await call("find_user_id_by_email", { email: `c${n}@example.com` });
  await call("get_user_details", { user_id: `user_${n}` });
  await call("get_order_details", { order_id: `#W${n}a` });
  if (cancels) {
    await call("cancel_pending_order", { order_id: `#W${n}a`, reason: "found it cheaper" });
    say("assistant", `I can cancel #W${n}a if it is no longer needed. Shall I?`);
    say("user", `Yes, cancel #W${n}a, I no longer need it.`);
    await call("stretto_commit", {
      calls: [
        { name: "get_order_details", arguments: { order_id: `#W${n}a` } },
        { name: "cancel_pending_order", arguments: { order_id: `#W${n}a`, reason: "no longer needed" } },
      ],
    });
  } else {
    await call("get_order_details", { order_id: `#W${n}b` });
    say("assistant", `Both your orders, #W${n}a and #W${n}b, are pending.`);
  }
  child.stdin!.end();
  const code = await exited;
  if (code !== 0) throw new Error(`stretto-proxy exited ${code} serving customer ${n}`);
}
