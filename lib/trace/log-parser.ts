/**
 * Parsing a log line by line (docs/session-log.md), so a reader can stream a file and keep
 * only what its consumer keeps. The rules:
 * - whitespace-only lines are ignored;
 * - the first other line must be the header (`line {n}: not a stretto MCP log header`), of
 *   version 1 or 2 (`unsupported log version {v} (this build reads versions 1 to 2)`);
 * - a malformed entry is an error (`line {n}: …`), except the last non-blank line of a text
 *   that does not end with `\n`: a proxy that crashed mid-write leaves that, so it is dropped.
 */
import type { Json } from "./json.js";
import { schemaReason, validateEntry, validateHeader } from "./log-schema.js";
import { LOG_VERSION, type LogEntry, type LogHeader, type McpLog, type Peer } from "./log-types.js";
import { errorText } from "../util/error-text.js";

/** What a log's lines turn into, in order: the header once, then each entry. */
export interface LogSink {
  header?(header: LogHeader): void;
  entry(entry: LogEntry): void;
}

/** A log's text is not a log. The message names the line (`line {n}: …`), so a user can find it. */
export class LogFormatError extends Error {
  override name = "LogFormatError";
}

export class LogParser {
  private header: LogHeader | undefined;
  /** A malformed entry, forgiven only if no other line follows it and the text is cut off. */
  private pending: LogFormatError | undefined;

  constructor(private readonly sink: LogSink) {}

  /** Whether the header has been read. */
  get hasHeader(): boolean {
    return this.header !== undefined;
  }

  /** One physical line, 1-based `n`, without its `\n` (and without a `\r` before it). */
  line(n: number, text: string): void {
    if (isBlank(text)) return;
    if (this.header === undefined) {
      this.header = parseHeader(n, text);
      this.sink.header?.(this.header);
      return;
    }
    if (this.pending) throw this.pending;
    const entry = parseEntry(text);
    if (typeof entry === "string") this.pending = new LogFormatError(`line ${n}: ${entry}`);
    else this.sink.entry(entry);
  }

  /** The text has ended; `endedWithNewline` says whether its last byte was `\n`. */
  end(endedWithNewline: boolean): void {
    if (this.header === undefined) throw new LogFormatError("empty log: no header line");
    if (this.pending && endedWithNewline) throw this.pending;
  }
}

/** Parse a whole log held as text. */
export function parseLog(text: string): McpLog {
  const entries: LogEntry[] = [];
  let header: LogHeader | undefined;
  const parser = new LogParser({ header: (h) => (header = h), entry: (e) => entries.push(e) });
  const lines = text.split("\n");
  // A final `\n` leaves an empty piece that is no line of its own.
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((line, i) => parser.line(i + 1, line.endsWith("\r") ? line.slice(0, -1) : line));
  parser.end(text.endsWith("\n"));
  return { header: header!, entries };
}

export function isBlank(text: string): boolean {
  // Entry lines start with `{`; only other lines need the full check.
  return text.length === 0 || (text.charCodeAt(0) !== 0x7b && text.trim().length === 0);
}

function parseHeader(n: number, text: string): LogHeader {
  let h: unknown;
  let reason: string | undefined;
  try {
    h = JSON.parse(text);
    if (!validateHeader(h)) reason = schemaReason(validateHeader.errors);
  } catch (e) {
    reason = jsonReason(e);
  }
  if (reason !== undefined) throw new LogFormatError(`line ${n}: not a stretto MCP log header: ${reason}`);
  const o = h as Record<string, Json>;
  const version = o["stretto_mcp_log"] as number;
  if (version < 1 || version > LOG_VERSION) {
    throw new LogFormatError(
      `unsupported log version ${version} (this build reads versions 1 to ${LOG_VERSION})`,
    );
  }
  const header: LogHeader = {
    stretto_mcp_log: version,
    session: o["session"] as string,
    started_unix_ms: o["started_unix_ms"] as number,
    server_command: (o["server_command"] as string[] | undefined) ?? [],
    domain: (o["domain"] as string | null | undefined) ?? null,
    agent_model: (o["agent_model"] as string | null | undefined) ?? null,
  };
  const host = o["host_session"];
  if (typeof host === "string") header.host_session = host;
  const server = o["server_name"];
  if (typeof server === "string") header.server_name = server;
  const era = o["era"];
  if (era === "legacy" || era === "modern") header.era = era;
  const protocolVersion = o["protocol_version"];
  if (typeof protocolVersion === "string") header.protocol_version = protocolVersion;
  return header;
}

/** The entry a (non-blank) line holds, or why it is not one. */
export function parseEntry(text: string): LogEntry | string {
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch (e) {
    return jsonReason(e);
  }
  if (!validateEntry(o)) return schemaReason(validateEntry.errors);
  // Usually the parsed object is the entry as it is. serde reads a null `message` or `raw`
  // as absent, and ignores unknown keys: then a clean copy is made.
  const v = o as { t_ms: number; from: Peer; message?: Json | null; raw?: string | null };
  let keys = 0;
  for (const _ in v) keys++;
  const known = 2 + (v.message !== undefined ? 1 : 0) + (v.raw !== undefined ? 1 : 0);
  if (keys === known && v.message !== null && v.raw !== null) return v as LogEntry;
  const entry: LogEntry = { t_ms: v.t_ms, from: v.from };
  if (v.message !== undefined && v.message !== null) entry.message = v.message;
  if (typeof v.raw === "string") entry.raw = v.raw;
  return entry;
}

function jsonReason(e: unknown): string {
  return `not JSON: ${errorText(e)}`;
}
