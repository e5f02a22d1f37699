/** The Episode's JSON Schema (draft-07), and a validator for it. */
import { Ajv, type ValidateFunction } from "ajv";
import type { Episode } from "./episode-types.js";

const U32_MAX = 4294967295;
const count = { type: "integer", minimum: 0 };

export const episodeSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://stretto.dev/schemas/episode.json",
  title: "Episode",
  description: "One agent conversation, flattened into events in the order they happened.",
  type: "object",
  additionalProperties: false,
  required: ["id", "task_id", "trial", "domain", "agent_model", "reward", "events"],
  properties: {
    id: { type: "string" },
    task_id: { type: "string" },
    trial: { type: "integer", minimum: 0, maximum: U32_MAX },
    domain: { type: "string" },
    agent_model: { type: "string" },
    reward: { type: "number" },
    events: { type: "array", items: { $ref: "#/definitions/event" } },
  },
  definitions: {
    event: {
      oneOf: [
        { $ref: "#/definitions/user" },
        { $ref: "#/definitions/assistant" },
        { $ref: "#/definitions/tool_result" },
      ],
    },
    user: {
      type: "object",
      additionalProperties: false,
      required: ["kind", "text"],
      properties: { kind: { const: "user" }, text: { type: "string" } },
    },
    assistant: {
      type: "object",
      additionalProperties: false,
      required: ["kind", "text", "calls"],
      properties: {
        kind: { const: "assistant" },
        text: { type: ["string", "null"] },
        calls: { type: "array", items: { $ref: "#/definitions/tool_call" } },
        usage: { anyOf: [{ type: "null" }, { $ref: "#/definitions/turn_usage" }] },
      },
    },
    tool_result: {
      type: "object",
      additionalProperties: false,
      required: ["kind", "call_id", "name", "error", "content"],
      properties: {
        kind: { const: "tool_result" },
        call_id: { type: "string" },
        name: { type: "string" },
        error: { type: "boolean" },
        content: { type: "string" },
      },
    },
    tool_call: {
      type: "object",
      additionalProperties: false,
      required: ["id", "name", "arguments"],
      properties: { id: { type: "string" }, name: { type: "string" }, arguments: {} },
    },
    turn_usage: {
      type: "object",
      additionalProperties: false,
      required: ["prompt_tokens", "completion_tokens", "cost"],
      properties: { prompt_tokens: count, completion_tokens: count, cost: { type: "number" } },
    },
  },
} as const;

let compiled: ValidateFunction | undefined;

/** Whether `value` is an Episode; `errors` gets ajv's reasons when it is not. */
export function isEpisode(value: unknown, errors?: string[]): value is Episode {
  compiled ??= new Ajv({ strict: true, allowUnionTypes: true }).compile(episodeSchema);
  const ok = compiled(value);
  if (!ok && errors) for (const e of compiled.errors ?? []) errors.push(`${e.instancePath || "/"} ${e.message}`);
  return ok;
}
