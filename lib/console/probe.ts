/**
 * "Test connection": starts the server (or reaches its URL) as a host would, asks
 * `initialize` and every page of `tools/list`, and says what it found or why it could not.
 * Header values come from the console's environment by the names the registry keeps, and are
 * never part of an answer. The whole exchange has 15 s.
 */
import { spawn } from "node:child_process";
import split2 from "split2";
import { createParser } from "eventsource-parser";
import type { ProbeResult, ServerEntry, ToolInfo } from "./api-types.js";
import { isObject } from "../util/is-object.js";
import { VERSION } from "../version.js";

const LIMIT_MS = 15_000;
const PAGES = 20;

type Ask = (method: string, params: unknown, notification?: boolean) => Promise<Record<string, unknown> | undefined>;

class ProbeError extends Error {}

function toolInfo(t: Record<string, unknown>): ToolInfo {
  const ann = isObject(t["annotations"]) ? t["annotations"] : {};
  const ro = typeof ann["readOnlyHint"] === "boolean" ? ann["readOnlyHint"] : null;
  const props = isObject(t["inputSchema"]) && isObject(t["inputSchema"]["properties"]) ? t["inputSchema"]["properties"] : {};
  const required = isObject(t["inputSchema"]) && Array.isArray(t["inputSchema"]["required"]) ? (t["inputSchema"]["required"] as unknown[]) : [];
  const contract = Object.entries(props)
    .map(([k, v]) => `${k}:${isObject(v) && typeof v["type"] === "string" ? v["type"] : "any"}${required.includes(k) ? "!" : ""}`)
    .join(", ");
  return {
    name: typeof t["name"] === "string" ? t["name"] : "",
    kind: ro === true ? "read" : ro === false ? "write" : "generic",
    description: typeof t["description"] === "string" ? t["description"] : null,
    read_only_hint: ro,
    destructive_hint: typeof ann["destructiveHint"] === "boolean" ? ann["destructiveHint"] : null,
    contract,
  };
}

async function exchange(ask: Ask): Promise<Omit<ProbeResult, "ok" | "ms" | "error" | "flow_warnings">> {
  const init = await ask("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "stretto-console", version: VERSION } });
  await ask("notifications/initialized", undefined, true);
  const tools: ToolInfo[] = [];
  let cursor: unknown;
  for (let page = 0; page < PAGES; page++) {
    const r = await ask("tools/list", cursor === undefined ? {} : { cursor });
    if (Array.isArray(r?.["tools"])) for (const t of r["tools"]) if (isObject(t)) tools.push(toolInfo(t));
    cursor = r?.["nextCursor"];
    if (typeof cursor !== "string") break;
  }
  const info = isObject(init?.["serverInfo"]) ? init["serverInfo"] : {};
  return {
    server_name: typeof info["name"] === "string" ? info["name"] : null,
    server_version: typeof info["version"] === "string" ? info["version"] : null,
    protocol_version: typeof init?.["protocolVersion"] === "string" ? init["protocolVersion"] : null,
    instructions: typeof init?.["instructions"] === "string" ? init["instructions"] : null,
    tools: tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

function answerOf(m: unknown, id: number, method: string): Record<string, unknown> | undefined {
  const list = Array.isArray(m) ? m : [m];
  for (const x of list) {
    if (!isObject(x) || x["id"] !== id || x["method"] !== undefined) continue;
    if (isObject(x["error"])) throw new ProbeError(`the server answered ${method} with an error: ${String(x["error"]["message"])}`);
    return isObject(x["result"]) ? x["result"] : {};
  }
  return undefined;
}

async function stdio(command: readonly string[], env: NodeJS.ProcessEnv, run: (ask: Ask) => Promise<void>): Promise<void> {
  if (command.length === 0 || command[0]!.trim() === "") throw new ProbeError("the server's command is empty");
  const child = spawn(command[0]!, command.slice(1), { stdio: ["pipe", "pipe", "ignore"], env });
  const waiting = new Map<number, { method: string; resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  let exit: string | undefined;
  const failAll = (why: (method: string) => string) => {
    for (const w of waiting.values()) w.reject(new ProbeError(why(w.method)));
    waiting.clear();
  };
  child.on("error", (e) => failAll(() => `starting ${command[0]!}: ${e.message}`));
  child.on("exit", (code) => {
    exit = code !== null && code !== 0 ? ` (it exited with exit status: ${code})` : "";
  });
  child.stdin.on("error", () => undefined);
  const lines = child.stdout.pipe(split2());
  lines.on("data", (line: string) => {
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    if (isObject(m) && typeof m["method"] === "string" && m["id"] !== undefined) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: m["id"], error: { code: -32601, message: "Method not found" } })}\n`);
      return;
    }
    for (const [id, w] of waiting) {
      try {
        const r = answerOf(m, id, w.method);
        if (r !== undefined) {
          waiting.delete(id);
          w.resolve(r);
        }
      } catch (e) {
        waiting.delete(id);
        w.reject(e as Error);
      }
    }
  });
  lines.on("end", () => setImmediate(() => failAll((method) => `the server closed its output before answering ${method}${exit ?? ""}`)));
  let next = 1;
  try {
    await run((method, params, notification) => {
      const id = next++;
      const msg = notification ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
      if (notification) {
        next--;
        child.stdin.write(`${JSON.stringify(msg)}\n`);
        return Promise.resolve(undefined);
      }
      return new Promise((resolve, reject) => {
        waiting.set(id, { method, resolve, reject });
        child.stdin.write(`${JSON.stringify(msg)}\n`);
      });
    });
  } finally {
    child.stdin.end();
    child.kill();
  }
}

async function http(e: Extract<ServerEntry["upstream"], { kind: "http" }>, env: NodeJS.ProcessEnv, run: (ask: Ask) => Promise<void>): Promise<void> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  for (const h of e.headers) {
    const v = env[h.env];
    if (v === undefined) throw new ProbeError(`${h.env} is not set in the console's environment, so the ${h.name} header cannot be sent`);
    if (/[\r\n\0]/.test(v)) throw new ProbeError(`${h.env} does not hold a valid header value`);
    headers[h.name] = v;
  }
  let next = 1;
  let session: string | null = null;
  try {
    await run(async (method, params, notification) => {
      const id = next++;
      const body = notification ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
      let res: Response;
      try {
        res = await fetch(e.url, { method: "POST", headers: { ...headers, ...(session === null ? {} : { "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18" }) }, body: JSON.stringify(body) });
      } catch (err) {
        throw new ProbeError(`sending ${method}: ${(err as Error).message}`);
      }
      if (!res.ok) throw new ProbeError(`the server answered ${method} with HTTP ${res.status} ${res.statusText}`);
      session = res.headers.get("mcp-session-id") ?? session;
      if (notification) {
        await res.body?.cancel();
        return undefined;
      }
      const text = await res.text().catch((err: unknown) => {
        throw new ProbeError(`reading the answer to ${method}: ${(err as Error).message}`);
      });
      if ((res.headers.get("content-type") ?? "").includes("text/event-stream")) {
        let found: Record<string, unknown> | undefined;
        const parser = createParser({
          onEvent: (ev) => {
            if (found !== undefined) return;
            try {
              found = answerOf(JSON.parse(ev.data), id, method);
            } catch (err) {
              if (err instanceof ProbeError) throw err;
            }
          },
        });
        parser.feed(text.replace(/\r/g, ""));
        if (found === undefined) throw new ProbeError(`the server's event stream ended before it answered ${method}`);
        return found;
      }
      let doc: unknown;
      try {
        doc = JSON.parse(text);
      } catch (err) {
        throw new ProbeError(`reading the answer to ${method}: ${(err as Error).message}`);
      }
      const r = answerOf(doc, id, method);
      if (r === undefined) throw new ProbeError(`the server's answer to ${method} is not its response`);
      return r;
    });
  } finally {
    if (session !== null) await fetch(e.url, { method: "DELETE", headers: { ...headers, "Mcp-Session-Id": session } }).catch(() => undefined);
  }
}

export async function probe(e: ServerEntry, env: NodeJS.ProcessEnv): Promise<ProbeResult> {
  const started = Date.now();
  let found: Omit<ProbeResult, "ok" | "ms" | "error" | "flow_warnings"> | undefined;
  const run = async (ask: Ask) => {
    found = await exchange(ask);
  };
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeError(`the server did not answer within ${LIMIT_MS / 1000} s`)), LIMIT_MS);
  });
  let error: string | null = null;
  try {
    await Promise.race([e.upstream.kind === "stdio" ? stdio(e.upstream.command, env, run) : http(e.upstream, env, run), limit]);
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  } finally {
    clearTimeout(timer);
  }
  const none = { server_name: null, server_version: null, protocol_version: null, instructions: null, tools: [] };
  return { ok: error === null, ms: Date.now() - started, error, ...(found ?? none), flow_warnings: [] };
}
