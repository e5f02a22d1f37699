/**
 * The console's answers: JSON with its status, errors as `{ error }`, and request bodies read
 * with a size limit. A handler throws an ApiFailure to answer with a status and a message.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** An answer other than 200: its status and the message the `error` field carries. */
export class ApiFailure extends Error {
  override name = "ApiFailure";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (m: string) => new ApiFailure(400, m);
export const notFound = (m: string) => new ApiFailure(404, m);
export const refused = (m: string) => new ApiFailure(403, m);
export const conflict = (m: string) => new ApiFailure(409, m);
export const unreadable = (m: string) => new ApiFailure(422, m);

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}

export function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: message });
}

/** Bodies are small JSON documents: a server entry, a job, a note. */
const BODY_LIMIT = 1 << 20;

/** The request's body parsed as JSON; empty is `undefined`. Bad JSON: 400 `{what}: {why}`. */
export async function readJson(req: IncomingMessage, what: string): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) throw new ApiFailure(413, `${what}: the body is larger than 1 MiB`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw badRequest(`${what}: ${(e as Error).message}`);
  }
}
