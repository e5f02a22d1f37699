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

export function outcome(response: Json): Outcome {
  // Keys are read by name (`own`, json.ts): this runs for every result of a log.
  const answer = isObject(response) ? response : undefined;
  const error = answer === undefined ? undefined : own(answer, "error", answer["error"]);
  if (error !== undefined && error !== null) {
    const message = field(error, "message");
    return { error: true, content: typeof message === "string" ? message : jsonText(error) };
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
  if (content === undefined) {
    const structured = body === undefined ? undefined : own(body, "structuredContent", body["structuredContent"]);
    content = structured !== undefined ? jsonText(structured) : jsonText(result);
  }
  return { error: body !== undefined && body["isError"] === true, content };
}
