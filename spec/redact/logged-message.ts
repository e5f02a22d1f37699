/**
 * The parts of a logged message the redaction specs read: a JSON-RPC message's id, method, tool
 * call and result items, or a conversation line's text. Each message is checked against a schema
 * of these parts as it is read, so a part of another type fails there, not as a misread value.
 */
import assert from "node:assert/strict";
import { Ajv } from "ajv";
import { isObject } from "../../lib/util/is-object.js";

export interface LoggedMessage {
  id?: string | number | null;
  method?: string;
  params?: { name?: string; arguments?: Record<string, unknown> };
  result?: { content?: { text?: string }[] };
  /** A conversation line's text (`from: "context"`). */
  content?: string;
}

const isLoggedMessage = new Ajv({ strict: true, allowUnionTypes: true }).compile<LoggedMessage>({
  type: "object",
  properties: {
    id: { type: ["string", "number", "null"] },
    method: { type: "string" },
    params: { type: "object", properties: { name: { type: "string" }, arguments: { type: "object" } } },
    result: {
      type: "object",
      properties: { content: { type: "array", items: { type: "object", properties: { text: { type: "string" } } } } },
    },
    content: { type: "string" },
  },
});

/** `json` as a logged message, failing the spec when it is not one. */
export function loggedMessage(json: unknown): LoggedMessage {
  assert.ok(isLoggedMessage(json), `not a logged message: ${JSON.stringify(json)}`);
  return json;
}

/** `value`, failing the spec when it is not a string. */
export function aString(value: unknown): string {
  if (typeof value !== "string") assert.fail(`not a string: ${JSON.stringify(value)}`);
  return value;
}

/** A tool call's arguments, failing the spec when the message has none. */
export function argsOf(m: LoggedMessage | undefined): Record<string, unknown> {
  const args = m?.params?.arguments;
  if (args === undefined) assert.fail(`no tool call arguments in ${JSON.stringify(m)}`);
  return args;
}

/** The value at `path` in parsed JSON (object keys, array indexes), failing the spec where a step has nothing to step into. */
export function valueAt(json: unknown, ...path: (string | number)[]): unknown {
  let cur = json;
  for (const step of path) {
    if (typeof step === "number" ? !Array.isArray(cur) : !isObject(cur)) assert.fail(`no ${step} in ${JSON.stringify(cur)}`);
    cur = (cur as Record<string | number, unknown>)[step];
  }
  return cur;
}
