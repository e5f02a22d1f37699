import { CHECKED, ON_HANDLED, PARSED, frame as newFrame, readOf, type Frame } from "../frame.js";
import { checkLine, checkLineIn, type LineCheck, type WireMessage } from "../../protocol/line-check.js";
import { toolResultLine } from "../../protocol/compose.js";
import { mayHoldText } from "../../trace/json.js";
import { isObject } from "../../util/is-object.js";
import { idKeyOfValue } from "../../protocol/id-key.js";
import { utf8Text } from "../../protocol/utf8-text.js";

/** A JSON-RPC id: MCP uses strings and numbers. */
export type RpcId = string | number;

export interface RpcRequest {
  jsonrpc?: string;
  id: RpcId;
  method: string;
  params?: unknown;
}

export interface RpcNotification {
  jsonrpc?: string;
  method: string;
  params?: unknown;
}

export interface RpcResponse {
  jsonrpc?: string;
  id: RpcId;
  result?: unknown;
  error?: { code?: number; message?: string; data?: unknown } | null;
}

const NOT_JSON = Symbol("not JSON");

/**
 * A frame's JSON value, parsed at most once however many plugins ask; undefined for a
 * line that is not (valid UTF-8) JSON. Frames are immutable, so the cache is safe.
 */
export function jsonOf(frame: Frame): unknown {
  const known = frame[PARSED];
  if (known !== undefined) return known === NOT_JSON ? undefined : known;
  const value = parsed(frame);
  frame[PARSED] = value;
  return value === NOT_JSON ? undefined : value;
}

/**
 * A frame's JSON value like `jsonOf`, but a value not parsed yet is not kept on the frame:
 * for a reader that comes long after the line passed (the lazily built Episode), when no
 * plugin will ask again and a value kept on an old frame would outlive its use.
 */
export function jsonOfLate(frame: Frame): unknown {
  const known = frame[PARSED];
  const value = known === undefined ? parsed(frame) : known;
  return value === NOT_JSON ? undefined : value;
}

/** The line's value, or NOT_JSON for a line that is not (valid UTF-8) JSON. */
function parsed(frame: Frame): unknown {
  try {
    // A line a source read is decoded where it lies in the read, with no view of it made.
    const span = readOf(frame);
    const text = span === undefined ? utf8Text(frame.bytes) : utf8Text(span.read, span.stop, span.start);
    return text === undefined ? NOT_JSON : (JSON.parse(text) as unknown);
  } catch {
    return NOT_JSON;
  }
}

/** Whether a frame's line could hold `text` in a string or key (`mayHoldText`): if not, it need not be parsed. */
export function mayHold(frame: Frame, text: string): boolean {
  return mayHoldText(frame.bytes, text);
}

function isId(v: unknown): v is RpcId {
  return typeof v === "string" || typeof v === "number";
}

export function isRequest(v: unknown): v is RpcRequest {
  return isObject(v) && typeof v["method"] === "string" && isId(v["id"]);
}

export function isNotification(v: unknown): v is RpcNotification {
  return isObject(v) && typeof v["method"] === "string" && (v["id"] === undefined || v["id"] === null);
}

export function isResponse(v: unknown): v is RpcResponse {
  return isObject(v) && v["method"] === undefined && isId(v["id"]) && ("result" in v || ("error" in v && v["error"] !== null));
}

/** The request a frame carries, if it is one (not a batch, not a notification). */
export function requestOf(frame: Frame): RpcRequest | undefined {
  const v = jsonOf(frame);
  return isRequest(v) ? v : undefined;
}

export function responseOf(frame: Frame): RpcResponse | undefined {
  const v = jsonOf(frame);
  return isResponse(v) ? v : undefined;
}

/** Ids match by JSON identity: 1 and "1" are different requests. */
export function sameId(a: RpcId, b: RpcId): boolean {
  return a === b;
}

/** A key for maps of ids that keeps 1 and "1" apart: the protocol's `idKeyOfValue`. */
export function idKey(id: RpcId): string {
  return idKeyOfValue(id);
}

/** One line the proxy composed: compact JSON and `\n`. */
export function line(message: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(message)}\n`);
}

/**
 * A `tools/call` result with its keys in their natural order (`jsonrpc`, `id`, `result`;
 * `content`, `isError`), the order servers write them in, not sorted: a line the proxy makes
 * reads like the server's own in the log. JSON readers do not depend on key order.
 */
export function toolResult(id: RpcId, text: string, isError: boolean): Buffer {
  return line({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }], isError } });
}

export type { WireMessage } from "../../protocol/line-check.js";

/**
 * The messages a line holds (one, or each element of a batch), with each message's exact
 * text and its id as written; undefined when the line is not JSON-RPC the strict check
 * reads. In guard mode the bus has already checked every host line a plugin sees.
 */
export function messagesOf(f: Frame): readonly WireMessage[] | undefined {
  const check = checkOf(f);
  return check.ok ? check.messages : undefined;
}

/**
 * The strict check of a frame's line (`checkLine`), made at most once. The check and
 * `jsonOf` share one parse: the check reads a value already parsed, and a line that passes
 * keeps the value the check read for `jsonOf`.
 */
export function checkOf(f: Frame): LineCheck {
  const known = f[CHECKED];
  if (known !== undefined) return known;
  const parsed = f[PARSED];
  const value = parsed === NOT_JSON ? undefined : parsed;
  // A line a source read is checked where it lies in the read, with no view of it made.
  const span = readOf(f);
  const check = span === undefined ? checkLine(f.bytes, value) : checkLineIn(span.read, span.start, span.stop, value);
  f[CHECKED] = check;
  if (check.ok && parsed === undefined) f[PARSED] = check.batch ? check.messages.map((m) => m.value) : check.messages[0]!.value;
  return check;
}

/**
 * The frames that go on when only the messages `keep` accepts may: the line itself when it
 * keeps them all, nothing when it keeps none, else a batch of the kept messages' exact texts.
 */
export function keepMessages(f: Frame, messages: readonly WireMessage[], keep: (m: WireMessage) => boolean): Frame[] {
  const kept = messages.filter(keep);
  if (kept.length === messages.length) return [f];
  if (kept.length === 0) {
    f[ON_HANDLED]?.("withheld");
    return [];
  }
  const part = newFrame("proxy", f.tMs, Buffer.from(`[${kept.map((m) => m.text).join(",")}]\n`));
  part[ON_HANDLED] = f[ON_HANDLED];
  return [part];
}

/**
 * The last line `toolAnswer` made and the value it reads as: the session logs an answer as
 * soon as it is made (a refusal, once per refused call), so one slot is enough; a line made
 * earlier is parsed as any other line is, to the same value.
 */
let lastAnswer: Buffer | undefined;
let lastAnswerValue: unknown;

/** A `tools/call` result answering `m`, with its id exactly as the host wrote it. */
export function toolAnswer(m: WireMessage, text: string, isError: boolean): Buffer {
  const idText = m.idText ?? "null";
  const bytes = toolResultLine(idText, text, isError);
  // What JSON.parse would read the line as, made beside it, so the session logs the answer
  // without parsing back what it just wrote.
  lastAnswer = bytes;
  lastAnswerValue = { jsonrpc: "2.0", id: idValue(idText), result: { content: [{ type: "text", text }], isError } };
  return bytes;
}

/**
 * The value of an id as written: a number token read as `Number` reads it (the same double
 * JSON.parse makes of it, without a call into the parser), anything else parsed.
 */
function idValue(idText: string): unknown {
  const c = idText.charCodeAt(0);
  return c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39) ? Number(idText) : JSON.parse(idText);
}

/** The value `bytes` read as, when `toolAnswer` made them last; undefined for any other line. */
export function composedValue(bytes: Buffer): unknown {
  if (bytes !== lastAnswer) return undefined;
  // Taken once: the line is logged once, and the slot should not keep it alive.
  lastAnswer = undefined;
  const value = lastAnswerValue;
  lastAnswerValue = undefined;
  return value;
}
