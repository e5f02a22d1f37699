import { trim, trimEnd, words } from "../unicode-space.js";

/** One HTTP request as the strict demo server reads it. */
export interface HttpRequest {
  method: string;
  /** The request target as sent (query included). */
  path: string;
  /** Names lowercased (ASCII), names and values trimmed; a repeated name keeps its last value. */
  headers: Map<string, string>;
  body: Buffer;
}

export type ReadState =
  | { state: "incomplete" }
  /** The connection is to be dropped without a reply (a short body, a head not UTF-8). */
  | { state: "dropped" }
  | { state: "complete"; request: HttpRequest };

const INCOMPLETE: ReadState = { state: "incomplete" };
const DROPPED: ReadState = { state: "dropped" };
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lossless = (bytes: Buffer): string | undefined => {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
};

interface Head {
  method: string;
  path: string;
  headers: Map<string, string>;
  bodyStart: number;
  length: number;
}

/**
 * Reads one request off a connection forgivingly (docs/demo-server.md, "Over Streamable
 * HTTP"), which node:http is not, so the demo answers a sloppy client the way other builds
 * of the demo do and a client's tests give the same result against either: the request
 * line, then header lines
 * (split on `\n`) until a blank line or the end of input, lines without `:` skipped; then
 * `content-length` bytes of body (missing or unreadable → 0). A head cut off by the end of
 * input is read as far as it goes; a body cut short drops the connection.
 */
export class RequestReader {
  private data: Buffer = Buffer.alloc(0);
  private head: Head | undefined;

  push(chunk: Buffer): ReadState {
    this.data = this.data.length === 0 ? chunk : Buffer.concat([this.data, chunk]);
    return this.read(false);
  }

  /** The peer has sent all it will. */
  end(): ReadState {
    return this.read(true);
  }

  private read(ended: boolean): ReadState {
    if (this.head === undefined) {
      const head = readHead(this.data, ended);
      if (head === "incomplete") return INCOMPLETE;
      if (head === "dropped") return DROPPED;
      this.head = head;
    }
    const { method, path, headers, bodyStart, length } = this.head;
    if (this.data.length - bodyStart < length) return ended ? DROPPED : INCOMPLETE;
    const body = this.data.subarray(bodyStart, bodyStart + length);
    return { state: "complete", request: { method, path, headers, body } };
  }
}

function readHead(data: Buffer, ended: boolean): Head | "incomplete" | "dropped" {
  let pos = 0;
  // One line with its `\n` (or what is left at the end of input); undefined for "wait".
  const nextLine = (): Buffer | undefined => {
    const nl = data.indexOf(0x0a, pos);
    if (nl === -1 && !ended) return undefined;
    const end = nl === -1 ? data.length : nl + 1;
    const line = data.subarray(pos, end);
    pos = end;
    return line;
  };
  const requestBytes = nextLine();
  if (requestBytes === undefined) return "incomplete";
  const requestLine = lossless(requestBytes);
  if (requestLine === undefined) return "dropped";
  const [method = "", path = ""] = words(requestLine);
  const headers = new Map<string, string>();
  for (;;) {
    const bytes = nextLine();
    if (bytes === undefined) return "incomplete";
    if (bytes.length === 0) break; // end of input
    const line = lossless(bytes);
    if (line === undefined) return "dropped";
    const text = trimEnd(line);
    if (text === "") break;
    const colon = text.indexOf(":");
    if (colon === -1) continue;
    headers.set(asciiLower(trim(text.slice(0, colon))), trim(text.slice(colon + 1)));
  }
  return { method, path, headers, bodyStart: pos, length: contentLength(headers) };
}

/** `content-length` as Rust's `usize` parse reads it (a leading `+` allowed); else 0. */
function contentLength(headers: Map<string, string>): number {
  const value = headers.get("content-length");
  if (value === undefined || !/^\+?[0-9]+$/.test(value)) return 0;
  const n = Number(value.replace(/^\+/, ""));
  return n <= 2 ** 64 ? n : 0; // u64::MAX as a double rounds to 2^64
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
