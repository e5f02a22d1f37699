import { isObject } from "../../protocol/protocol-era.js";

/** Whether a line is the response (result or error) to the request with this id. */
export function isAnswerTo(line: Buffer, idJson: string): boolean {
  const m = parsed(line);
  return isObject(m) && m["method"] === undefined && JSON.stringify(m["id"]) === idJson && ("result" in m || "error" in m);
}

/** Whether a line is a JSON-RPC error for the request with this id. */
export function isErrorFor(line: Buffer, idJson: string): boolean {
  const m = parsed(line);
  return isObject(m) && JSON.stringify(m["id"]) === idJson && isObject(m["error"]);
}

/** The line's JSON value, or undefined when it is not JSON. */
function parsed(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}
