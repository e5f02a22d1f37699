import { TextDecoder } from "node:util";
import { idKeyOfText } from "../../protocol/id-key.js";
import { scanWire } from "../../protocol/wire-scan.js";
import { META_PROTOCOL_VERSION } from "../../protocol/protocol-era.js";
import { isObject } from "../../util/is-object.js";
import { refuse, TEXT, type Refusal } from "./refusal.js";

/** One message of a POST, as the session's server will read it. */
export interface HostMessage {
  kind: "request" | "notification" | "response";
  method?: string | undefined;
  /** The id as the host wrote it, and its key (`1` and `1.0` are one id). */
  idText?: string | undefined;
  idKey?: string | undefined;
  /** `params._meta.progressToken` as JSON text, for routing the server's progress. */
  progressToken?: string | undefined;
  /** `params._meta["io.modelcontextprotocol/protocolVersion"]`: a 2026-07-28 request. */
  modernVersion?: string | undefined;
  /** The message's text as sent, CR and LF made spaces, with a `\n`: one line for the server. */
  line: Buffer;
}

export interface HostBody {
  messages: HostMessage[];
  batch: boolean;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a POST body into its messages: one, or each element of a batch (the server never
 * sees the array, only its elements, one line each, in the host's own words).
 */
export function readMessages(body: Buffer): HostBody | Refusal {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return refuse(400, TEXT.notUtf8, { code: -32700 });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return refuse(400, `the body is not JSON: ${(err as Error).message}`, { code: -32700 });
  }
  const batch = Array.isArray(value);
  const values: unknown[] = batch ? (value as unknown[]) : [value];
  if (values.length === 0) return refuse(400, TEXT.emptyBatch);
  // Each element's own text: the parts of the scan (only a batch needs it).
  const texts = batch ? scanWire(text).parts.map((p) => text.slice(p.offset, p.offset + p.length)) : [text.trim()];
  const messages: HostMessage[] = [];
  for (const [i, v] of values.entries()) {
    const m = messageOf(v, texts[i] ?? JSON.stringify(v));
    if (!m) return refuse(400, TEXT.notMessage);
    messages.push(m);
  }
  return { messages, batch };
}

function messageOf(v: unknown, raw: string): HostMessage | undefined {
  if (!isObject(v)) return undefined;
  const line = Buffer.from(`${raw.replace(/[\r\n]/g, " ")}\n`, "utf8");
  const hasId = "id" in v;
  const idText = hasId ? JSON.stringify(v["id"]) : undefined;
  const idKey = hasId ? idKeyOf(v["id"]) : undefined;
  const method = v["method"];
  if (typeof method === "string") {
    const params = v["params"];
    const meta = isObject(params) && isObject(params["_meta"]) ? params["_meta"] : undefined;
    const token = meta?.["progressToken"];
    const modern = meta?.[META_PROTOCOL_VERSION];
    return {
      kind: hasId ? "request" : "notification",
      method,
      idText,
      idKey,
      line,
      progressToken: token === undefined ? undefined : JSON.stringify(token),
      modernVersion: typeof modern === "string" ? modern : undefined,
    };
  }
  if (method === undefined && hasId && ("result" in v || "error" in v)) return { kind: "response", idText, idKey, line };
  return undefined;
}

/** The key of an id value (null and other shapes by their JSON text). */
export function idKeyOf(id: unknown): string {
  if (typeof id === "string" || (typeof id === "number" && Number.isFinite(id))) return idKeyOfText(JSON.stringify(id));
  return `j:${JSON.stringify(id) ?? "null"}`;
}
