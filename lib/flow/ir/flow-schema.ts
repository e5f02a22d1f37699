/**
 * The flow file's JSON Schema (draft-07), checked with ajv: the fields every flow must have,
 * with their types (docs/flows.md, "Flow files"). Unknown fields are ignored, so a flow
 * written by a newer learner, or by another implementation, still loads; numbers may be
 * written `8` or `8.0` (JSON.parse reads both the same). The program is checked apart, by
 * the program parser.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { Ajv as AjvClass, ErrorObject, Options, ValidateFunction } from "ajv";

const U32_MAX = 4294967295;
const uint = { type: "integer", minimum: 0 } as const;
const u32 = { type: "integer", minimum: 0, maximum: U32_MAX } as const;
const num = { type: "number" } as const;
const str = { type: "string" } as const;
const bool = { type: "boolean" } as const;
const strings = { type: "array", items: str } as const;

/** A two-item array. */
function tuple(first: object, second: object): object {
  return { type: "array", items: [first, second], minItems: 2, additionalItems: false };
}

/** A pair-list map: `[[key, value], …]`. */
function pairs(key: object, value: object): object {
  return { type: "array", items: tuple(key, value) };
}

/** A string-keyed map: a JSON object. */
function record(value: object): object {
  return { type: "object", additionalProperties: value };
}

const counts = {
  type: "object",
  required: ["by_action", "total"],
  properties: { by_action: pairs(u32, num), total: num },
};

const backoffModel = {
  type: "object",
  required: ["order", "alpha", "vocab_size", "levels"],
  properties: {
    order: uint,
    alpha: num,
    vocab_size: uint,
    levels: { type: "array", items: pairs({ type: "array", items: u32 }, counts) },
  },
};

const predicate = {
  type: "object",
  required: ["id", "favors", "question", "yes", "no"],
  properties: {
    id: str,
    favors: {
      anyOf: [
        { enum: ["same_lookup", "any_lookup", "hand_back"] },
        { type: "object", required: ["lookup"], properties: { lookup: str } },
      ],
    },
    question: str,
    yes: str,
    no: str,
  },
};

const sourceCounts = {
  type: "object",
  required: ["values", "found"],
  properties: { values: uint, found: pairs(tuple(str, str), uint) },
};

const usedCount = tuple(uint, uint);

export const flowSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://stretto.dev/schemas/flow.json",
  title: "stretto flow IR (format versions 1 and 2)",
  type: "object",
  required: [
    "stretto_flow",
    "provenance",
    "vocab",
    "manifest",
    "map",
    "group",
    "habit",
    "sites",
    "predicates",
    "weighed",
    "folds",
    "bindings",
    "model",
  ],
  properties: {
    stretto_flow: u32,
    provenance: {
      type: "object",
      required: ["stretto", "sources", "habit_episodes", "arbiter_cases", "compiled_unix_ms"],
      properties: {
        stretto: str,
        sources: strings,
        habit_episodes: uint,
        arbiter_cases: uint,
        compiled_unix_ms: uint,
        conventions: str,
      },
    },
    vocab: {
      type: "array",
      items: {
        anyOf: [{ const: "Respond" }, { type: "object", required: ["Tool"], properties: { Tool: str } }],
      },
    },
    manifest: {
      type: "object",
      required: ["domain", "tools"],
      properties: {
        domain: str,
        tools: record({ enum: ["read", "write", "generic"] }),
        docs: record({
          type: "object",
          required: ["summary", "args"],
          properties: { summary: str, args: record(str) },
        }),
      },
    },
    map: {
      type: "object",
      required: ["fields", "ids"],
      properties: {
        fields: record({
          type: "array",
          items: {
            anyOf: [
              { type: "object", required: ["Scalar"], properties: { Scalar: str } },
              { type: "object", required: ["Len"], properties: { Len: str } },
            ],
          },
        }),
        ids: pairs(tuple(str, strings), u32),
      },
    },
    group: u32,
    habit: {
      type: "object",
      required: ["base", "beta", "top"],
      properties: { base: backoffModel, beta: num, top: pairs(tuple(u32, { type: "array", items: u32 }), counts) },
    },
    sites: {
      type: "object",
      required: ["reads", "next", "feeds"],
      properties: {
        reads: strings,
        next: pairs(tuple(str, bool), record(uint)),
        feeds: record(pairs(tuple(str, str), uint)),
        every_read: bool,
      },
    },
    predicates: { type: "array", items: predicate },
    weighed: { type: "array", items: predicate },
    folds: {
      type: "array",
      items: {
        type: "object",
        required: ["weights", "rates"],
        properties: {
          weights: { type: "array", items: num },
          rates: {
            type: "object",
            required: ["sites", "agree", "cover"],
            properties: {
              sites: pairs(str, { type: "array", items: [uint, uint, uint], minItems: 3, additionalItems: false }),
              agree: num,
              cover: num,
            },
          },
        },
      },
    },
    bindings: {
      type: "object",
      required: ["args", "sources", "agreed"],
      properties: {
        args: record(tuple(uint, record(uint))),
        sources: pairs(tuple(str, str), sourceCounts),
        agreed: record(tuple(usedCount, usedCount)),
        named_other: record(usedCount),
        described_read: record(usedCount),
        site_sources: {
          type: "array",
          items: {
            type: "object",
            required: ["tool", "arg", "site", "source", "values"],
            properties: { tool: str, arg: str, site: str, source: tuple(str, str), values: uint },
          },
        },
        lists: pairs(tuple(str, str), sourceCounts),
        bare: record(uint),
        constants: pairs(tuple(str, str), {}),
      },
    },
    model: str,
    program: { type: "object" },
    promoted: {
      type: "object",
      required: ["bar", "sites"],
      properties: {
        bar: {
          type: "object",
          required: ["threshold", "min_used", "min_lower", "min_tasks"],
          properties: { threshold: num, min_used: num, min_lower: num, min_tasks: uint },
        },
        sites: record({
          type: "object",
          required: ["decisions", "lookups", "used", "tasks", "lower", "promoted"],
          properties: { decisions: uint, lookups: uint, used: uint, tasks: uint, lower: num, promoted: bool },
        }),
      },
    },
    thresholds: record(num),
    contracts: record(str),
    reach: backoffModel,
    surprise: {
      type: "object",
      required: ["window", "threshold"],
      properties: { window: uint, threshold: num, quantile: num },
    },
  },
} as const;

/** How the flow's validator is compiled, at run time or ahead of it. */
export const FLOW_AJV_OPTIONS: Options = { strict: true, allErrors: false };

/**
 * The validator ajv generated from this schema at build time (scripts/precompile-validators.ts),
 * beside this module: compiling the schema costs about 200 ms of CPU, which every
 * `stretto-proxy --flow` start would pay before its first answer.
 */
export const PRECOMPILED_FLOW_VALIDATOR = "flow-validator.precompiled.cjs";

/** The schema's fingerprint: a precompiled validator made from another schema is not used. */
export function flowSchemaHash(): string {
  return createHash("sha256").update(JSON.stringify(flowSchema)).digest("hex");
}

let compiled: ValidateFunction | undefined;

/** The validator: the precompiled one when it was made from this schema, else compiled here, once. */
export function flowValidator(): ValidateFunction {
  compiled ??= precompiledFlowValidator() ?? compileFlowValidator();
  return compiled;
}

/** The validator compiled from the schema (ajv itself is loaded only then: it too costs a start). */
export function compileFlowValidator(options: Options = FLOW_AJV_OPTIONS): ValidateFunction {
  const { Ajv } = createRequire(import.meta.url)("ajv") as { Ajv: typeof AjvClass };
  return new Ajv(options).compile(flowSchema);
}

/** The build's validator, or undefined when there is none or it was made from another schema. */
export function precompiledFlowValidator(): ValidateFunction | undefined {
  let loaded: unknown;
  try {
    loaded = createRequire(import.meta.url)(`./${PRECOMPILED_FLOW_VALIDATOR}`);
  } catch {
    return undefined;
  }
  const made = loaded as (ValidateFunction & { schemaHash?: unknown }) | undefined;
  return typeof made === "function" && made.schemaHash === flowSchemaHash() ? made : undefined;
}

/**
 * One ajv error in words close to serde's: ``missing field `vocab` `` for a required
 * field, else where it is and what was expected, e.g.
 * `invalid value at /sites/reads/0: must be string`.
 */
export function describeSchemaError(e: ErrorObject): string {
  const at = e.instancePath === "" ? "" : ` at ${e.instancePath}`;
  if (e.keyword === "required") {
    const field = (e.params as { missingProperty: string }).missingProperty;
    return `missing field \`${field}\`${at}`;
  }
  return `invalid value${at === "" ? " at /" : at}: ${e.message ?? "is not valid"}`;
}
