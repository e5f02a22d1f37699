/**
 * The JSON Schema of an OTLP/JSON traces document (`ExportTraceServiceRequest`), as an
 * OpenTelemetry collector's file exporter writes one per line: resource spans, scope spans,
 * spans with their ids, times and attributes. Only what the reader uses is required; ids
 * are hex strings and times decimal strings of nanoseconds (numbers are taken too, as some
 * exporters write them).
 */
import { Ajv, type ValidateFunction } from "ajv";

const anyValue = {
  type: "object",
  properties: {
    stringValue: { type: "string" },
    boolValue: { type: "boolean" },
    intValue: { type: ["string", "integer"] },
    doubleValue: { type: ["number", "string"] },
    arrayValue: { type: "object", properties: { values: { type: "array", items: { $ref: "#/definitions/anyValue" } } } },
    kvlistValue: { type: "object", properties: { values: { type: "array", items: { $ref: "#/definitions/keyValue" } } } },
    bytesValue: { type: "string" },
  },
} as const;

const keyValue = {
  type: "object",
  required: ["key"],
  properties: { key: { type: "string" }, value: { $ref: "#/definitions/anyValue" } },
} as const;

const nanos = { type: ["string", "integer"], pattern: "^[0-9]+$" } as const;

export const otlpTracesSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "OTLP/JSON traces document (ExportTraceServiceRequest)",
  type: "object",
  required: ["resourceSpans"],
  definitions: { anyValue, keyValue },
  properties: {
    resourceSpans: {
      type: "array",
      items: {
        type: "object",
        properties: {
          resource: { type: "object", properties: { attributes: { type: "array", items: { $ref: "#/definitions/keyValue" } } } },
          scopeSpans: {
            type: "array",
            items: {
              type: "object",
              properties: {
                spans: {
                  type: "array",
                  items: {
                    type: "object",
                    required: ["traceId", "spanId", "startTimeUnixNano"],
                    properties: {
                      traceId: { type: "string" },
                      spanId: { type: "string" },
                      parentSpanId: { type: "string" },
                      name: { type: "string" },
                      startTimeUnixNano: nanos,
                      endTimeUnixNano: nanos,
                      attributes: { type: "array", items: { $ref: "#/definitions/keyValue" } },
                      status: { type: "object", properties: { code: { type: ["integer", "string"] }, message: { type: "string" } } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

let compiled: ValidateFunction | undefined;

/** Why `doc` is no OTLP traces document (the first problem, with where), or undefined. */
export function otlpProblem(doc: unknown): string | undefined {
  compiled ??= new Ajv({ strict: true, allowUnionTypes: true }).compile(otlpTracesSchema);
  if (compiled(doc)) return undefined;
  const e = compiled.errors![0]!;
  return `${e.message ?? "invalid"}${e.instancePath === "" ? "" : ` at ${e.instancePath}`}`;
}
