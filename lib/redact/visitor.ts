/**
 * What the walk over a log hands out, once to count and once to rewrite. Both passes see
 * exactly the same values, because they share one walk (entry-walk.ts): a value the census
 * never counted could not be told from a rare one.
 */
import type { Json } from "../trace/index.js";

export interface Visitor {
  /** A JSON key, string or number (as text), or a whole line of a tool's text: its replacement, or undefined to keep it. */
  value(v: string): string | undefined;
  /** Running text (the conversation, error messages, raw lines), rewritten word by word. */
  words(text: string): string;
  /** A JSON document of data (arguments, a result's JSON, params, error data), before its values are visited. */
  document(doc: Json): void;
  /** The result of a `tools/list` answer, for the names its tools declare. */
  listing(result: Json): void;
}
