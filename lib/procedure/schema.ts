/**
 * The procedure file's JSON Schema (draft-07), checked with ajv after the version: what
 * the reference reader requires of each field. Unknown fields are ignored. A node is a
 * split or a leaf, tried in that order; whatever fits neither is one error.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

const uint = { type: "integer", minimum: 0 } as const;
const str = { type: "string" } as const;
const strings = { type: "array", items: str } as const;

export const procedureSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://stretto.dev/schemas/procedure.json",
  title: "stretto procedure IR (format 1)",
  type: "object",
  required: [
    "stretto_procedure",
    "domain",
    "symbolic",
    "max_calls",
    "stop",
    "handoff",
    "reads",
    "vocab",
    "trees",
    "fallback",
    "checks",
  ],
  properties: {
    stretto_procedure: uint,
    domain: str,
    provenance: {},
    symbolic: { type: "boolean" },
    max_calls: uint,
    stop: str,
    handoff: str,
    handoff_arguments: { type: "object" },
    reads: strings,
    vocab: strings,
    trees: { type: "object", additionalProperties: { $ref: "#/definitions/node" } },
    fallback: { $ref: "#/definitions/node" },
    checks: {
      type: "array",
      items: {
        type: "object",
        required: ["phrase", "probe", "contains", "lacks"],
        properties: { phrase: str, probe: str, contains: strings, lacks: strings },
      },
    },
  },
  definitions: {
    node: {
      anyOf: [
        {
          type: "object",
          required: ["feature", "yes", "no"],
          properties: { feature: str, yes: { $ref: "#/definitions/node" }, no: { $ref: "#/definitions/node" } },
        },
        {
          type: "object",
          required: ["calls"],
          properties: {
            calls: {
              type: "array",
              items: { type: "array", items: [str, uint], minItems: 2, additionalItems: false },
            },
          },
        },
      ],
    },
  },
} as const;

let compiled: ValidateFunction | undefined;

/** The first thing wrong with a procedure, worded as the reference reader words it; undefined when valid. */
export function procedureProblem(value: unknown): string | undefined {
  compiled ??= new Ajv({ allErrors: false, strictTuples: false, verbose: true }).compile(procedureSchema);
  if (compiled(value)) return undefined;
  const errors = compiled.errors ?? [];
  // A node that fits neither shape fails an anyOf, whatever went wrong deeper inside it.
  if (errors.some((e) => e.keyword === "anyOf")) return "data did not match any variant of untagged enum Node";
  const first = errors[0];
  return first === undefined ? "invalid procedure" : referenceText(first);
}

function referenceText(e: ErrorObject): string {
  if (e.keyword === "required") return `missing field \`${String(e.params["missingProperty"])}\``;
  if (e.keyword === "type" || e.keyword === "minimum") {
    const wanted = e.keyword === "minimum" ? "integer" : String(e.params["type"]);
    return `invalid type: ${found(e.data)}, expected ${expected(wanted)}`;
  }
  return `${e.instancePath || "procedure"} ${e.message ?? "is invalid"}`;
}

function found(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "string") return `string ${JSON.stringify(v)}`;
  if (typeof v === "boolean") return `boolean \`${v}\``;
  if (typeof v === "number") return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  if (Array.isArray(v)) return "sequence";
  return "map";
}

function expected(type: string): string {
  switch (type) {
    case "string":
      return "a string";
    case "boolean":
      return "a boolean";
    case "integer":
      return "u64";
    case "array":
      return "a sequence";
    case "object":
      return "a map";
    default:
      return type;
  }
}
