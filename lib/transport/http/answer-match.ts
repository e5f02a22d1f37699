import { isObject } from "../../protocol/protocol-era.js";

/** Whether a line is the response (result or error) to the request with this id. */
export function isAnswerTo(line: Buffer, idJson: string): boolean {
  return answers(parsed(line), idJson);
}

/** Whether a line is a JSON-RPC error for the request with this id. */
export function isErrorFor(line: Buffer, idJson: string): boolean {
  const m = parsed(line);
  return isObject(m) && JSON.stringify(m["id"]) === idJson && isObject(m["error"]);
}

/** A JSON body that does not answer what was POSTed: the requests to answer with an error, and why. */
export interface Mismatch {
  /** The ids (as JSON text) of the requests left unanswered. */
  ids: string[];
  /** Whether they were sent as a batch (and are answered as one). */
  batch: boolean;
  why: string;
}

/**
 * Whether a JSON body (`line`) answers the host message POSTed (`posted`, read as `p`): a
 * request must get the response with its id; a batch, one response for each of its requests
 * and nothing else. Undefined when it does, or when there is nothing to check (a
 * notification, a response, a batch without requests, or a body that is neither JSON nor
 * declared JSON, which the host gets as text as before).
 */
export function answerMismatch(posted: Buffer, p: { method?: string; idJson?: string }, line: Buffer, declaredJson: boolean): Mismatch | undefined {
  const answer = parsed(line);
  if (answer === undefined && !declaredJson) return undefined;
  if (p.idJson !== undefined) {
    if (answers(answer, p.idJson)) return undefined;
    return { ids: [p.idJson], batch: false, why: `the answer to request ${p.idJson} ${describe(answer)}` };
  }
  if (p.method !== undefined) return undefined;
  const ids = batchRequestIds(parsed(posted));
  if (ids === undefined || ids.length === 0) return undefined;
  const left = new Set(ids);
  const each = Array.isArray(answer) && answer.every((m) => isObject(m) && left.delete(JSON.stringify(m["id"])) && answers(m, JSON.stringify(m["id"])));
  if (each && left.size === 0) return undefined;
  return { ids, batch: true, why: `the answer to the batch of requests ${ids.join(", ")} does not answer each of them once` };
}

/** The ids (as JSON text) of the requests in a batch, or undefined when it is not one. */
function batchRequestIds(batch: unknown): string[] | undefined {
  if (!Array.isArray(batch)) return undefined;
  const ids: string[] = [];
  for (const m of batch) {
    if (isObject(m) && typeof m["method"] === "string" && m["id"] !== undefined && m["id"] !== null) ids.push(JSON.stringify(m["id"]));
  }
  return ids;
}

function answers(m: unknown, idJson: string): boolean {
  return isObject(m) && m["method"] === undefined && JSON.stringify(m["id"]) === idJson && ("result" in m || "error" in m);
}

/** What a body that is not the answer is, for stderr. */
function describe(m: unknown): string {
  if (m === undefined) return "is not JSON";
  if (isObject(m) && m["method"] === undefined && ("result" in m || "error" in m)) return `is for id ${JSON.stringify(m["id"]) ?? "(none)"}`;
  return "is not a JSON-RPC response";
}

/** The line's JSON value, or undefined when it is not JSON. */
function parsed(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}
