import type { IncomingMessage } from "node:http";
import { refuse, TEXT, type Refusal } from "./refusal.js";

/** The most a POST body may hold (4 MiB). */
export const BODY_LIMIT = 4 << 20;

/**
 * Reads a POST body, bounded in size and in time: a body past the limit is refused as soon
 * as its length says so (or its bytes pass it), and one that does not arrive within
 * `deadlineMs` (a slow-loris client) is refused too, so no client holds memory or a request
 * slot for longer than that.
 */
export function readBody(req: IncomingMessage, deadlineMs: number, limit = BODY_LIMIT): Promise<Buffer | Refusal> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    discard(req, deadlineMs);
    return Promise.resolve(refuse(413, TEXT.tooLarge));
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (v: Buffer | Refusal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off("data", onData);
      resolve(v);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        settle(refuse(413, TEXT.tooLarge));
        discard(req, deadlineMs);
        return;
      }
      chunks.push(chunk);
    };
    const timer = setTimeout(() => {
      settle(refuse(408, TEXT.slowBody));
      // Answered; then the connection goes, so the client holds nothing here any more.
      setTimeout(() => req.socket.destroy(), 100).unref();
    }, deadlineMs);
    req.on("data", onData);
    req.once("end", () => settle(Buffer.concat(chunks, size)));
    req.once("error", () => settle(refuse(400, TEXT.slowBody)));
  });
}

/**
 * The rest of a refused body is read and dropped (a client still writing gets its answer
 * rather than a broken pipe), for at most `deadlineMs`: then the connection is cut.
 */
function discard(req: IncomingMessage, deadlineMs: number): void {
  req.resume();
  const cut = setTimeout(() => req.socket.destroy(), deadlineMs);
  cut.unref();
  req.once("end", () => clearTimeout(cut));
}
