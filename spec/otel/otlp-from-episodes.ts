/**
 * OpenTelemetry spans for recorded sessions, as an instrumented agent would export them
 * through a collector's file exporter (OTLP/JSON, one traces document per line, one per
 * session): each LLM turn a `chat` span (the conversation so far in, its text out), each call
 * an `execute_tool` span ending when its result came back, every other call with an MCP
 * `tools/call` span inside it holding the arguments and the result, and one unrelated HTTP
 * span per session that the reader must drop.
 */
import { writeFileSync } from "node:fs";
import { folderEpisodes, planFolder } from "../../lib/trace/index.js";
import type { Episode } from "../../lib/trace/episode-types.js";

type Attr = { key: string; value: Record<string, unknown> };

const attr = (key: string, v: string | number | boolean): Attr => ({
  key,
  value: typeof v === "string" ? { stringValue: v } : typeof v === "boolean" ? { boolValue: v } : { intValue: String(v) },
});
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/** One session's spans, its times from `base` nanoseconds, a microsecond per event. */
export function sessionSpans(ep: Episode, traceNo: number, base: bigint): unknown[] {
  const traceId = hex(traceNo, 32);
  let spanNo = 0;
  const spans: Record<string, unknown>[] = [];
  const span = (name: string, start: bigint, attributes: Attr[], parent?: string): Record<string, unknown> => {
    const s: Record<string, unknown> = { traceId, spanId: hex(traceNo * 1000 + ++spanNo, 16), name, kind: 3, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 1n), attributes };
    if (parent !== undefined) s["parentSpanId"] = parent;
    spans.push(s);
    return s;
  };
  span("GET /health", base, [attr("http.request.method", "GET")]);
  const conversation: unknown[] = [];
  const open = new Map<string, Record<string, unknown>[]>();
  let t = base;
  let callNo = 0;
  for (const e of ep.events) {
    t += 1000n;
    if (e.kind === "user") {
      conversation.push({ role: "user", parts: [{ type: "text", content: e.text }] });
    } else if (e.kind === "assistant") {
      const out = e.text === null ? [] : [{ role: "assistant", parts: [{ type: "text", content: e.text }] }];
      span("chat", t, [
        attr("gen_ai.operation.name", "chat"),
        attr("gen_ai.conversation.id", ep.id),
        attr("gen_ai.request.model", ep.agent_model),
        attr("gen_ai.input.messages", JSON.stringify(conversation)),
        attr("gen_ai.output.messages", JSON.stringify(out)),
      ]);
      conversation.push(...out);
      e.calls.forEach((c, i) => {
        const start = t + 2n + BigInt(i);
        const tool = span(`execute_tool ${c.name}`, start, [attr("gen_ai.operation.name", "execute_tool"), attr("gen_ai.conversation.id", ep.id), attr("gen_ai.tool.name", c.name), attr("gen_ai.tool.call.id", c.id)]);
        const parts = [tool];
        const details = [attr("gen_ai.tool.call.arguments", JSON.stringify(c.arguments))];
        if (callNo++ % 2 === 0) {
          parts.push(span(`tools/call ${c.name}`, start, [attr("mcp.method.name", "tools/call"), attr("gen_ai.conversation.id", ep.id), attr("gen_ai.tool.name", c.name), attr("jsonrpc.request.id", c.id), ...details], tool["spanId"] as string));
        } else {
          (tool["attributes"] as Attr[]).push(...details);
        }
        open.set(c.id, parts);
      });
    } else {
      const parts = open.get(e.call_id) ?? [];
      const result = attr("gen_ai.tool.call.result", JSON.stringify({ content: [{ type: "text", text: e.content }], isError: e.error }));
      (parts[parts.length - 1]!["attributes"] as Attr[]).push(result);
      for (const p of parts) p["endTimeUnixNano"] = String(t);
    }
  }
  return spans;
}

/** The sessions of `dir` as an OTLP/JSON file at `path` (one line per session). */
export async function writeOtlp(dir: string, path: string): Promise<number> {
  const lines: string[] = [];
  let n = 0;
  for await (const ep of folderEpisodes(await planFolder(dir))) {
    n += 1;
    const base = 1_790_000_000_000_000_000n + BigInt(n) * 60_000_000_000n;
    const doc = { resourceSpans: [{ resource: { attributes: [attr("service.name", "spec-agent")] }, scopeSpans: [{ scope: { name: "spec" }, spans: sessionSpans(ep, n, base) }] }] };
    lines.push(JSON.stringify(doc));
  }
  writeFileSync(path, lines.map((l) => `${l}\n`).join(""));
  return n;
}
