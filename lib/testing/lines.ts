import { isUtf8 } from "node:buffer";

/**
 * A line as a test writes it: a JSON value (an object, or an array for a batch) is sent as
 * its compact JSON text; a string is sent as it is (so a test can send a line that is not
 * JSON, or JSON spaced its own way); a Buffer is sent byte for byte. A line end is added
 * when there is none.
 */
export type ScriptLine = object | string | Buffer;

/** A line as a test reads it back: its JSON value, or its text when it is not JSON. */
export type SeenLine = unknown;

const NEWLINE = 0x0a;

/** The bytes of a scripted line, ending in `\n`. */
export function bytesOf(l: ScriptLine): Buffer {
  const bytes = Buffer.isBuffer(l) ? l : Buffer.from(typeof l === "string" ? l : JSON.stringify(l), "utf8");
  return bytes.length > 0 && bytes[bytes.length - 1] === NEWLINE ? bytes : Buffer.concat([bytes, Buffer.from("\n")]);
}

/** A received line (with or without its line end) as a test sees it: parsed JSON, else its text. */
export function seenOf(bytes: Buffer): SeenLine {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === NEWLINE) end--;
  if (end > 0 && bytes[end - 1] === 0x0d) end--;
  const body = bytes.subarray(0, end);
  const text = body.toString("utf8");
  if (!isUtf8(body)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Splits a byte stream into lines: `push` gives the whole lines a chunk completed, `rest` what is left at the end. */
export class LineBuffer {
  private held: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    const data = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    const lines: Buffer[] = [];
    let start = 0;
    for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
      lines.push(data.subarray(start, nl + 1));
      start = nl + 1;
    }
    this.held = Buffer.from(data.subarray(start));
    return lines;
  }

  rest(): Buffer | undefined {
    const rest = this.held;
    this.held = Buffer.alloc(0);
    return rest.length > 0 ? rest : undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The ids of the requests a line holds (one message, or each of a batch), as JSON texts. */
export function requestIds(value: SeenLine): string[] {
  const out: string[] = [];
  for (const m of Array.isArray(value) ? (value as unknown[]) : [value]) {
    if (isRecord(m) && typeof m["method"] === "string" && "id" in m && m["id"] !== undefined) out.push(JSON.stringify(m["id"]));
  }
  return out;
}

/** The ids a line answers (a response, or each response of a batch), as JSON texts. */
export function answeredIds(value: SeenLine): string[] {
  const out: string[] = [];
  for (const m of Array.isArray(value) ? (value as unknown[]) : [value]) {
    if (isRecord(m) && m["method"] === undefined && "id" in m && ("result" in m || "error" in m)) out.push(JSON.stringify(m["id"]));
  }
  return out;
}

/** A request or notification as the server script is handed it. */
export interface ServerMessage {
  jsonrpc?: string;
  id?: string | number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
  [key: string]: unknown;
}

/** The answer to `m` with this result. */
export function resultFor(m: ServerMessage, result: unknown): object {
  return { jsonrpc: "2.0", id: m.id ?? null, result };
}

/** A JSON-RPC error answer to `m`. */
export function errorFor(m: ServerMessage, code: number, message: string): object {
  return { jsonrpc: "2.0", id: m.id ?? null, error: { code, message } };
}

/** A `tools/call` answer to `m`: one text item, and `isError`. */
export function toolResultFor(m: ServerMessage, text: string, isError = false): object {
  return resultFor(m, { content: [{ type: "text", text }], isError });
}

/** A JSON-RPC request line (`jsonrpc: "2.0"` filled in). */
export function request(id: string | number, method: string, params?: unknown): object {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

/** A JSON-RPC notification line. */
export function notification(method: string, params?: unknown): object {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}

/** A `tools/call` request line. */
export function toolCall(id: string | number, name: string, args: Record<string, unknown> = {}): object {
  return request(id, "tools/call", { name, arguments: args });
}
