/**
 * What the agent sees of a flow's lookups: each lookup's text, and the
 * appendix pushed onto the agent's own result as one more text item, in the pilot's format.
 */
import { type Frame, messageLine, messagesOf, type RpcResponse } from "../index.js";
import { jsonText, type Json } from "../../trace/json.js";

/** The appendix's first line, exactly. */
export const APPENDIX = "--- Also looked up automatically (current results; no need to repeat these calls) ---";

/** One lookup the flow made, and what the server answered. */
export interface Looked {
  tool: string;
  arguments: Record<string, Json>;
  text: string;
  error: boolean;
}

/**
 * A response's text and whether it failed: a non-null JSON-RPC `error` gives its `message`
 * (or `"error"`); otherwise every `content[]` item's string `text`, joined by `\n`, failed
 * when `result.isError === true`.
 */
export function resultText(response: RpcResponse): { text: string; error: boolean } {
  if (response.error !== undefined && response.error !== null) {
    const message = response.error.message;
    return { text: typeof message === "string" ? message : "error", error: true };
  }
  const result = response.result;
  const parts: string[] = [];
  let error = false;
  if (result !== null && typeof result === "object" && !Array.isArray(result)) {
    const r = result as { content?: unknown; isError?: unknown };
    if (Array.isArray(r.content)) {
      for (const item of r.content) {
        const t = item !== null && typeof item === "object" ? (item as { text?: unknown }).text : undefined;
        if (typeof t === "string") parts.push(t);
      }
    }
    error = r.isError === true;
  }
  return { text: parts.join("\n"), error };
}

/** The appendix's text for the lookups made. */
export function appendixText(looked: readonly Looked[]): string {
  let text = APPENDIX;
  for (const l of looked) {
    text += `\n\n${l.tool} ${jsonText(l.arguments)}${l.error ? " (error)" : ""}:\n${l.text}`;
  }
  return text;
}

/**
 * The agent's response with the appendix pushed onto `result.content` (set to `[item]`
 * when missing or not an array), re-serialized in the server's own key order (the proxy
 * never reorders what a server sent, so the agent reads the server's answer as it was),
 * plus `\n`. The message is never changed. Undefined when the response has no object `result`.
 */
export function withAppendix(message: unknown, looked: readonly Looked[], idText?: string): Buffer | undefined {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return undefined;
  const m = message as Record<string, unknown>;
  const result = m["result"];
  if (result === null || typeof result !== "object" || Array.isArray(result)) return undefined;
  const item = { type: "text", text: appendixText(looked) };
  const r = result as Record<string, unknown>;
  const content = r["content"];
  // Only the path to the new item is copied (the rest is shared, never changed): a key
  // overwritten in a spread keeps its place, and `content` added is added last.
  const copy = { ...m, result: { ...r, content: Array.isArray(content) ? [...(content as unknown[]), item] : [item] } };
  // The id goes back exactly as the server wrote it (a long integer keeps every digit); an id
  // written as JSON writes it needs no putting back.
  if (idText === undefined || idText === JSON.stringify(m["id"])) return Buffer.from(`${JSON.stringify(copy)}\n`);
  return messageLine(copy, idText);
}

/**
 * How the answer's id was written, for `withAppendix` to put back; undefined when it need
 * not be put back: the line begins with the id as JSON writes it (`{"id":…` or
 * `{"jsonrpc":"2.0","id":…`, as servers write their answers), and the answer is then
 * written the same with or without it. Otherwise the strict check of the line tells.
 */
export function writtenId(f: Frame, message: unknown): string | undefined {
  const id = message !== null && typeof message === "object" ? (message as { id?: unknown }).id : undefined;
  if (typeof id === "string" || typeof id === "number") {
    const text = JSON.stringify(id);
    if (beginsWith(f.bytes, `{"id":${text}`) || beginsWith(f.bytes, `{"jsonrpc":"2.0","id":${text}`)) return undefined;
  }
  return messagesOf(f)?.[0]?.idText;
}

/** Whether `bytes` begin with `prefix`, followed by the end of the value (`,` or `}`). */
function beginsWith(bytes: Buffer, prefix: string): boolean {
  const n = Buffer.byteLength(prefix);
  if (bytes.length <= n || (bytes[n] !== 0x2c && bytes[n] !== 0x7d)) return false;
  return bytes.toString("utf8", 0, n) === prefix;
}
