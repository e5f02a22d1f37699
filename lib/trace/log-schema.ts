/**
 * JSON Schemas of the header and entry lines, checked with ajv. They are lenient, so logs
 * written by other versions and implementations of the proxy still read: optional fields
 * may be absent or null, unknown keys are ignored (a later proxy may record more, such as
 * the protocol era).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { PEERS } from "./log-types.js";

/** u64::MAX (18446744073709551615) as a double rounds to 2^64. */
const U64_MAX = 2 ** 64;
const U32_MAX = 4294967295;
const optionalString = { type: ["string", "null"] };

export const logHeaderSchema = {
  $id: "https://stretto.dev/schemas/log-header.json",
  title: "stretto-proxy session log header (format versions 1 and 2)",
  type: "object",
  required: ["stretto_mcp_log", "session", "started_unix_ms"],
  properties: {
    stretto_mcp_log: { type: "integer", minimum: 0, maximum: U32_MAX },
    session: { type: "string" },
    started_unix_ms: { type: "integer", minimum: 0, maximum: U64_MAX },
    server_command: { type: "array", items: { type: "string" } },
    domain: optionalString,
    agent_model: optionalString,
    host_session: optionalString,
    server_name: optionalString,
  },
} as const;

export const logEntrySchema = {
  $id: "https://stretto.dev/schemas/log-entry.json",
  title: "stretto-proxy session log entry",
  type: "object",
  required: ["t_ms", "from"],
  properties: {
    t_ms: { type: "integer", minimum: 0, maximum: U64_MAX },
    from: { enum: [...PEERS] },
    message: {},
    raw: optionalString,
  },
} as const;

const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
export const validateHeader: ValidateFunction = ajv.compile(logHeaderSchema);
export const validateEntry: ValidateFunction = ajv.compile(logEntrySchema);

/** A short reason, serde-like: ``missing field `session` ``, `` `from` must be … ``. */
export function schemaReason(errors: ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return "not valid";
  if (e.keyword === "required") return `missing field \`${String(e.params["missingProperty"])}\``;
  const name = e.instancePath.replace(/^\//, "").replace(/\//g, ".");
  if (e.keyword === "enum") {
    const allowed = (e.params["allowedValues"] as unknown[]).join(", ");
    return `\`${name}\` must be one of ${allowed}`;
  }
  return name === "" ? `must be ${e.keyword === "type" ? "an object" : e.message}` : `\`${name}\` ${e.message}`;
}
