/** The tool manifest's JSON Schema (draft-07), and a validator for it. */
import { Ajv, type ValidateFunction } from "ajv";
import type { ToolManifest } from "./manifest.js";

export const toolManifestSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://stretto.dev/schemas/tool-manifest.json",
  title: "ToolManifest",
  description: "The tools a server listed: each one's kind (from readOnlyHint) and documentation.",
  type: "object",
  additionalProperties: false,
  required: ["domain", "tools", "docs"],
  properties: {
    domain: { type: "string" },
    tools: { type: "object", additionalProperties: { enum: ["read", "write", "generic"] } },
    docs: {
      type: "object",
      additionalProperties: {
        type: "object",
        additionalProperties: false,
        required: ["summary", "args"],
        properties: {
          summary: { type: "string" },
          args: { type: "object", additionalProperties: { type: "string" } },
        },
      },
    },
  },
} as const;

let compiled: ValidateFunction | undefined;

/** Whether `value` is a ToolManifest. */
export function isToolManifest(value: unknown): value is ToolManifest {
  compiled ??= new Ajv({ strict: true }).compile(toolManifestSchema);
  return compiled(value);
}
