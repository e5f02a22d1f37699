/**
 * What a response to `tools/call` says: whether it is an error, and
 * its content as text. A JSON-RPC error gives its message (or the whole error, as JSON);
 * a result gives its text items joined by `\n`, else `structuredContent`, else itself.
 */
import { field, jsonText, type Json } from "./json.js";

export interface Outcome {
  error: boolean;
  content: string;
}

export function outcome(response: Json): Outcome {
  const error = field(response, "error");
  if (error !== undefined && error !== null) {
    const message = field(error, "message");
    return { error: true, content: typeof message === "string" ? message : jsonText(error) };
  }
  const result = field(response, "result") ?? null;
  // Text items joined by newlines; one item (the usual case) is its own text, uncopied.
  let content: string | undefined;
  const items = field(result, "content");
  if (Array.isArray(items)) {
    for (const item of items) {
      const text = field(item, "text");
      if (typeof text !== "string" || field(item, "type") !== "text") continue;
      content = content === undefined ? text : content + "\n" + text;
    }
  }
  if (content === undefined) {
    const structured = field(result, "structuredContent");
    content = structured !== undefined ? jsonText(structured) : jsonText(result);
  }
  return { error: field(result, "isError") === true, content };
}
