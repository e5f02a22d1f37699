/**
 * What a response to `tools/call` says: whether it is an error, and
 * its content as text. A JSON-RPC error gives its message (or the whole error, as JSON);
 * a result gives its text items joined by `\n`, else `structuredContent`, else itself.
 */
import { field, isObject, jsonText, own, type Json } from "./json.js";

export interface Outcome {
  error: boolean;
  content: string;
}

/**
 * A response read as far as its content's text, without making that text where it would be
 * a value's JSON: the content is `text` when the response gives one, else `jsonText(value)`.
 */
export interface ResultReading {
  error: boolean;
  /** The text the response gives (its text items joined, an error's message), if any. */
  text: string | undefined;
  /** Without `text`, the value whose sorted JSON is the content (`structuredContent`, the result, the error). */
  value: Json;
}

export function outcome(response: Json): Outcome {
  const r = readResult(response);
  return { error: r.error, content: r.text ?? jsonText(r.value) };
}

export function readResult(response: Json): ResultReading {
  // Keys are read by name (`own`, json.ts): this runs for every result of a log.
  const answer = isObject(response) ? response : undefined;
  const error = answer === undefined ? undefined : own(answer, "error", answer["error"]);
  if (error !== undefined && error !== null) {
    const message = field(error, "message");
    return { error: true, text: typeof message === "string" ? message : undefined, value: error };
  }
  const result = (answer === undefined ? undefined : own(answer, "result", answer["result"])) ?? null;
  const body = isObject(result) ? result : undefined;
  // Text items joined by newlines; one item (the usual case) is its own text, uncopied.
  let content: string | undefined;
  const items = body === undefined ? undefined : own(body, "content", body["content"]);
  if (Array.isArray(items)) {
    for (const item of items) {
      if (!isObject(item)) continue;
      // Compared with a string or a boolean, an inherited member never matches: no `own` needed.
      const text = item["text"];
      if (typeof text !== "string" || item["type"] !== "text") continue;
      content = content === undefined ? text : content + "\n" + text;
    }
  }
  const isError = body !== undefined && body["isError"] === true;
  if (content !== undefined) return { error: isError, text: content, value: null };
  const structured = body === undefined ? undefined : own(body, "structuredContent", body["structuredContent"]);
  return { error: isError, text: undefined, value: structured !== undefined ? structured : result };
}
