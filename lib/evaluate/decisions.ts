/**
 * The decisions `stretto evaluate` reads (`--decisions FILE`, JSON lines): each a logged flow
 * answer with its `policy` (logged with `--flow-explore`), plus `labels`, one per policy
 * option: whether the agent made that lookup itself later (used), whether it would have been
 * a detour, and the LLM turns it would have saved. Every line is checked against the schema;
 * a problem names the file and the line.
 */
import { textLines } from "../util/text-lines.js";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { Policy } from "../flow/decide/types.js";
import { osErrorText } from "../util/os-errors.js";
import { describeJsonSyntaxError } from "../util/json-syntax-error.js";

/** What the agent did about one option. */
export interface Label {
  used: boolean;
  detour: boolean;
  turn: number;
}

export interface LoggedDecision {
  /** `{file}:{line}`, for messages. */
  where: string;
  action: "lookup" | "hand_back";
  tool?: string;
  site: string | null;
  episode: string | null;
  policy: Policy;
  labels: Label[];
}

export class EvaluateError extends Error {
  override name = "EvaluateError";
}

const num = { type: "number" };
const optionSchema = {
  type: "object",
  required: ["tool", "p", "habit", "binding", "arguments"],
  properties: {
    tool: { type: "string" },
    p: num,
    habit: num,
    binding: { type: ["number", "null"] },
    arguments: { type: ["object", "null"] },
    unbound: { type: "string" },
  },
};

export const decisionSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "A labelled flow decision",
  type: "object",
  required: ["action", "policy", "labels"],
  properties: {
    action: { enum: ["lookup", "hand_back"] },
    tool: { type: "string" },
    site: { type: ["string", "null"] },
    episode: { type: ["string", "null"] },
    policy: {
      type: "object",
      required: ["decider", "threshold", "epsilon", "explored", "greedy", "propensity", "options"],
      properties: {
        decider: { enum: ["arbiter", "habit", "reach"] },
        threshold: num,
        epsilon: { type: "number", minimum: 0, maximum: 1 },
        explored: { type: "boolean" },
        greedy: { type: ["string", "null"] },
        propensity: num,
        task_id: { type: "string" },
        events: { type: "integer" },
        options: { type: "array", items: optionSchema },
      },
    },
    labels: {
      type: "array",
      items: {
        type: "object",
        required: ["used", "detour", "turn"],
        properties: { used: { type: "boolean" }, detour: { type: "boolean" }, turn: num },
      },
    },
  },
  if: { properties: { action: { const: "lookup" } } },
  then: { required: ["tool"] },
} as const;

let validator: ValidateFunction | undefined;

function schemaError(e: ErrorObject): string {
  const at = e.instancePath === "" ? "" : ` at ${e.instancePath}`;
  if (e.keyword === "required") return `missing field \`${(e.params as { missingProperty: string }).missingProperty}\`${at}`;
  return `invalid value${at === "" ? " at /" : at}: ${e.message ?? "is not valid"}`;
}

/** One line's decision; undefined for a flow log's run line, which decides nothing. */
export function parseDecision(text: string, where: string): LoggedDecision | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new EvaluateError(`${where}: not JSON: ${describeJsonSyntaxError(text)}`);
  }
  if (typeof doc === "object" && doc !== null && "run" in doc && !("action" in doc)) return undefined;
  validator ??= new Ajv({ strict: false, allErrors: false }).compile(decisionSchema);
  if (!validator(doc)) throw new EvaluateError(`${where}: ${schemaError(validator.errors![0]!)}`);
  const d = doc as Omit<LoggedDecision, "where" | "site" | "episode"> & { site?: string | null; episode?: string | null };
  if (d.labels.length !== d.policy.options.length) {
    throw new EvaluateError(`${where}: ${d.labels.length} labels for ${d.policy.options.length} options`);
  }
  const out: LoggedDecision = { where, action: d.action, site: d.site ?? null, episode: d.episode ?? null, policy: d.policy, labels: d.labels };
  if (d.tool !== undefined) out.tool = d.tool;
  return out;
}

/** Every decision in a file, in order. */
export async function readDecisions(path: string): Promise<LoggedDecision[]> {
  const out: LoggedDecision[] = [];
  let n = 0;
  try {
    for await (const line of textLines(path)) {
      n++;
      if (line.trim() === "") continue;
      const d = parseDecision(line, `${path}:${n}`);
      if (d !== undefined) out.push(d);
    }
  } catch (e) {
    if (e instanceof EvaluateError) throw e;
    throw new EvaluateError(`reading ${path}: ${osErrorText(e)}`);
  }
  return out;
}
