import { isUtf8 } from "node:buffer";
import { constants } from "node:buffer";
import { utf8Text } from "./utf8-text.js";
import { scanWire, type WirePart } from "./wire-scan.js";
import { quickScan, sameKeyCount } from "./quick-scan.js";

/** A message of a line that passed the check: its value, its exact text, its id as written. */
export interface WireMessage {
  readonly value: Readonly<Record<string, unknown>>;
  /** The message's own text, exactly as it arrived (an element's text inside a batch). */
  readonly text: string;
  /** The `id` member as written (`7`, `"a"`, `9007199254740993`), absent for a notification. */
  readonly idText: string | undefined;
  readonly method: string | undefined;
}

export type LineCheck =
  | { readonly ok: true; readonly batch: boolean; readonly messages: readonly WireMessage[] }
  | {
      readonly ok: false;
      /** -32700 when the line is not JSON the check can read, -32600 when it is not a valid request. */
      readonly code: -32700 | -32600;
      readonly why: string;
      /** The ids (as written) that can be read from the line, to answer; may be empty. */
      readonly idTexts: readonly string[];
      /** Whether the line reads as a batch (its answers then go in one array). */
      readonly batch: boolean;
    };

const LF = 0x0a;
const CR = 0x0d;

/**
 * The check a host line passes before a judging plugin sees it, and so before anything of
 * it may reach the server: one JSON value in well-formed UTF-8, with no byte order mark, no
 * carriage return but the one ending the line, no key twice, nothing JSON.parse would
 * read differently from a strict reader, and every message an object whose id (when it has
 * one) is a string or a number. What fails is read leniently only to find
 * ids to answer.
 */
export function checkLine(line: Buffer, parsed?: unknown): LineCheck {
  return checkLineIn(line, 0, line.length, parsed);
}

/** `checkLine` of the line that is bytes `start`…`stop` of `read`, read there, with no view of it made. */
export function checkLineIn(read: Buffer, start: number, stop: number, parsed?: unknown): LineCheck {
  // The line is read up to `end`, without its ending; its bytes are not copied or viewed anew.
  const end = bodyEnd(read, start, stop);
  if (end - start >= 3 && read[start] === 0xef && read[start + 1] === 0xbb && read[start + 2] === 0xbf) return bad(-32700, "the line begins with a byte order mark", read.subarray(start, end));
  if (end - start > constants.MAX_STRING_LENGTH) {
    if (hasCr(read, start, end)) return bad(-32700, CR_INSIDE, read.subarray(start, end));
    if (!isUtf8(read.subarray(start, stop))) return bad(-32700, NOT_UTF8, read.subarray(start, end));
    return { ok: false, code: -32700, why: "the line is too long to check", idTexts: [], batch: false };
  }
  // The body is read as text first: the text has a CR exactly where the bytes do (a decoder
  // never takes an ASCII byte into a character), so the CR is looked for in the text, and the
  // bytes are searched only when they are not UTF-8 (a CR is still told first).
  const text = utf8Text(read, end, start);
  if (text === undefined) return bad(-32700, hasCr(read, start, end) ? CR_INSIDE : NOT_UTF8, read.subarray(start, end));
  if (text.indexOf("\r") !== -1) return bad(-32700, CR_INSIDE, read.subarray(start, end));
  return quickCheck(text, parsed) ?? fullCheck(text);
}

const CR_INSIDE = "a carriage return inside the line (only a line's last \\r\\n may hold one)";
const NOT_UTF8 = "the line is not valid UTF-8";

/** Whether the body (`start`…`end` of `read`) holds a carriage return. */
function hasCr(read: Buffer, start: number, end: number): boolean {
  const cr = read.indexOf(CR, start);
  return cr !== -1 && cr < end;
}

/**
 * The common case at the cost of one `JSON.parse` (or none, given the line's value already
 * parsed) and one pass over the text: a clean line's verdict, or undefined for
 * {@link fullCheck} to decide (and word) anything else.
 */
function quickCheck(text: string, parsed: unknown): LineCheck | undefined {
  let value = parsed;
  if (value === undefined) {
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  const scan = quickScan(text);
  if (scan === undefined || (!scan.keysDistinct && !sameKeyCount(value, scan.keys))) return undefined;
  // (The scan is the scanner's until the next line: read it here, keep none of it.)
  const count = scan.batch ? (value as unknown[]).length : 1;
  if (count !== scan.count) return undefined;
  const messages: WireMessage[] = [];
  for (let i = 0; i < count; i++) {
    const part = scan.parts[i]!;
    const v = (scan.batch ? (value as unknown[])[i] : value) as Record<string, unknown>;
    if (scan.mayBeUnreadable && unreadableValue(v) !== undefined) return undefined;
    const m = messageOf(v, text.slice(part.offset, part.offset + part.length), part.idText);
    if (typeof m === "string") return undefined;
    messages.push(m);
  }
  return { ok: true, batch: scan.batch, messages };
}

/** The check by a strict scan of `text` (valid UTF-8, no BOM, no CR), saying what is wrong. */
export function fullCheck(text: string): LineCheck {
  const scan = scanWire(text);
  const fail = (code: -32700 | -32600, why: string): LineCheck => ({
    ok: false,
    code,
    why,
    idTexts: scan.parts.flatMap((p) => p.idTexts.filter(isIdText)),
    batch: scan.batch,
  });
  if (scan.tooDeep) return fail(-32700, "the line nests too deeply");
  if (scan.syntaxError !== undefined) return fail(-32700, `the line is not JSON: ${scan.syntaxError}`);
  if (scan.duplicateKey !== undefined) return fail(-32600, `the key ${JSON.stringify(scan.duplicateKey)} appears twice in one object`);
  if (scan.batch && scan.parts.length === 0) return fail(-32600, "an empty batch");
  const messages: WireMessage[] = [];
  for (const part of scan.parts) {
    const m = message(text, part);
    if (typeof m === "string") return fail(-32600, m);
    messages.push(m);
  }
  return { ok: true, batch: scan.batch, messages };
}

/**
 * Whether an id as written is one JSON-RPC allows: a string or a number. (Numbers should be
 * integers; `1e2` or `2.5` still get their answer with the id exactly as written.)
 */
export function isIdText(idText: string): boolean {
  // A string's quote, or a number's first digit (after its minus sign): what /^"|^-?[0-9]/ matches.
  const c = idText.charCodeAt(0);
  if (c === 0x22 /* " */) return true;
  const d = c === 0x2d /* - */ ? idText.charCodeAt(1) : c;
  return d >= 0x30 && d <= 0x39;
}

/** The message a part holds, or why it is not one. */
function message(text: string, part: WirePart): WireMessage | string {
  if (!part.object) return "a message must be a JSON object";
  const own = text.slice(part.offset, part.offset + part.length);
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(own) as Record<string, unknown>;
  } catch {
    return "the message is not JSON";
  }
  const unreadable = unreadableValue(value);
  if (unreadable !== undefined) return unreadable;
  return messageOf(value, own, part.idTexts[0]);
}

/** The message `value` (read from `own`, its `id` written `idText`), or why it is not one. */
function messageOf(value: Record<string, unknown>, own: string, idText: string | undefined): WireMessage | string {
  if (idText !== undefined && !isIdText(idText)) return `the id ${idText} is not a string or a number`;
  const method = value["method"];
  if (method !== undefined && typeof method !== "string") return "the method is not a string";
  if (typeof method === "string" && idText === undefined && !method.startsWith("notifications/")) {
    return `a ${method} request without an id`;
  }
  if (method === undefined && idText === undefined) return "neither a request, a notification nor a response";
  return { value, text: own, idText, method };
}

/** What a strict reader would read differently: a number past a double, a lone surrogate. */
function unreadableValue(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return "a number too large for a double";
    } else if (typeof v === "string") {
      if (!v.isWellFormed()) return "a string holds a lone surrogate";
    } else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (!k.isWellFormed()) return "a key holds a lone surrogate";
        stack.push(x);
      }
    }
  }
  return undefined;
}

/** Where the line's body (`start`…`stop` of `read`) ends: before its `\n` and the `\r` of a CRLF ending. */
function bodyEnd(read: Buffer, start: number, stop: number): number {
  let end = stop;
  if (end > start && read[end - 1] === LF) {
    end--;
    if (end > start && read[end - 1] === CR) end--;
  }
  return end;
}

/** A refusal, with the ids a lenient reading finds (invalid bytes read as U+FFFD, a BOM or CR as a space). */
function bad(code: -32700 | -32600, why: string, body: Buffer): LineCheck {
  let idTexts: string[] = [];
  let batch = false;
  if (body.length <= constants.MAX_STRING_LENGTH) {
    // A bare CR may hide two messages on one line: each piece is read for its ids.
    const pieces = body.toString("utf8").replace(/^\ufeff/, "").split("\r");
    const scans = pieces.map(scanWire);
    idTexts = scans.flatMap((s) => s.parts.flatMap((p) => p.idTexts)).filter(isIdText);
    batch = scans.length === 1 && scans[0]!.batch;
  }
  return { ok: false, code, why, idTexts, batch };
}
