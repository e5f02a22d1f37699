import { REFUSAL, type Frame } from "../bus/frame.js";
import { isRequest, isResponse, jsonOf } from "../bus/runtime/json-rpc.js";

/** One thing a plugin did in a replay, as `stretto replay` prints it (one JSON line each). */
export type ReplayAction =
  | { action: "refused"; id: unknown; tool: string | null; text: string }
  | { action: "answered"; id: unknown; tool: string | null; text: string; isError: boolean }
  | { action: "rewrote"; id: unknown; method: string | null }
  | { action: "looked_up"; id: string; method: string; tool: string | null; arguments: unknown }
  | { action: "forwarded_part"; ids: unknown[] };

/**
 * Reads a line the proxy composed as what a plugin did. `requests` names the host's
 * requests by id (for the tool), `answeredByServer` tells a rewrite from an answer.
 */
export function actionOf(
  f: Frame,
  requests: Map<string, { method: string; tool: string | null }>,
  answeredByServer: (id: unknown) => boolean,
): ReplayAction | undefined {
  const msg = jsonOf(f);
  if (Array.isArray(msg)) return { action: "forwarded_part", ids: msg.map((m) => (m as { id?: unknown }).id ?? null) };
  if (isRequest(msg) && typeof msg.id === "string") {
    const params = msg.params as { name?: unknown; arguments?: unknown } | undefined;
    return {
      action: "looked_up",
      id: msg.id,
      method: msg.method,
      tool: typeof params?.name === "string" ? params.name : null,
      arguments: params?.arguments ?? null,
    };
  }
  if (isProxyError(msg)) {
    // An error the proxy answered with: a line or call it would not forward, so a refusal
    // whether or not the plugin marked it one.
    const id = msg.id ?? null;
    return { action: "refused", id, tool: requests.get(JSON.stringify(id))?.tool ?? null, text: messageText(msg.error.message) };
  }
  if (!isResponse(msg)) return undefined;
  const asked = requests.get(JSON.stringify(msg.id));
  if (answeredByServer(msg.id)) return { action: "rewrote", id: msg.id, method: asked?.method ?? null };
  const result = msg.result as { content?: Array<{ text?: unknown }>; isError?: unknown } | undefined;
  const text = (result?.content ?? []).map((c) => (typeof c?.text === "string" ? c.text : "")).join("\n");
  const tool = asked?.tool ?? null;
  if (f[REFUSAL] === true) return { action: "refused", id: msg.id, tool, text };
  return { action: "answered", id: msg.id, tool, text, isError: result?.isError === true };
}

function isProxyError(v: unknown): v is { id?: unknown; error: { message?: unknown } } {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const error = (v as { error?: unknown }).error;
  return error !== null && typeof error === "object" && (v as { method?: unknown }).method === undefined;
}

/** An error's message as text: itself when a string, its JSON otherwise, "" when absent. */
function messageText(message: unknown): string {
  if (message === undefined || message === null) return "";
  return typeof message === "string" ? message : JSON.stringify(message);
}
