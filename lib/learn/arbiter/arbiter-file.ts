/**
 * The arbiter file (`{"stretto_arbiter":1,…}`): a flow's arbiter apart from the flow, so one
 * fitted arbiter can be given to a flow learned again (`stretto learn --arbiter-from FILE`).
 * It holds what serving reads of the arbiter: the model asked, the predicates asked and
 * weighed, the folds, and how many held-out decisions they were fitted on. Its fields are
 * written as in the flow file, and checked by the flow file's own schema for them.
 *
 * `--arbiter-from` also takes a flow file, and then takes the same fields from the flow.
 */
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import { describeJsonSyntaxError } from "../../util/json-syntax-error.js";
import { osErrorText } from "../../util/os-errors.js";
import { FlowLoadError, PairMap, flowFromJson, flowToJson, type Fitted, type Flow, type Predicate } from "../../flow/ir/index.js";
import type { FlowJson, PredicateJson } from "../../flow/ir/flow-json.js";
import { describeSchemaError, flowSchema } from "../../flow/ir/flow-schema.js";
import { LearnError } from "../learn-flow.js";

export const ARBITER_FORMAT = 1;

/** The arbiter file as written. */
export interface ArbiterFile {
  stretto_arbiter: typeof ARBITER_FORMAT;
  /** The System-One model the arbiter asks, e.g. `jev-latest`. */
  model: string;
  /** The held-out decisions the folds were fitted on (a flow's `provenance.arbiter_cases`). */
  cases: number;
  predicates: PredicateJson[];
  weighed: PredicateJson[];
  folds: FlowJson["folds"];
}

/** The arbiter a flow serves with, in memory. */
export interface Arbiter {
  model: string;
  cases: number;
  predicates: Predicate[];
  weighed: Predicate[];
  folds: Fitted[];
}

const FLOW_REF = `${flowSchema.$id}#/properties`;

export const arbiterFileSchema = {
  $id: "https://stretto.dev/schemas/arbiter.json",
  title: "stretto arbiter file (format 1)",
  type: "object",
  required: ["stretto_arbiter", "model", "cases", "predicates", "weighed", "folds"],
  properties: {
    stretto_arbiter: { const: ARBITER_FORMAT },
    model: { type: "string" },
    cases: { type: "integer", minimum: 0 },
    predicates: { $ref: `${FLOW_REF}/predicates` },
    weighed: { $ref: `${FLOW_REF}/weighed` },
    folds: { allOf: [{ $ref: `${FLOW_REF}/folds` }, { type: "array", minItems: 1 }] },
  },
} as const;

let compiled: ValidateFunction | undefined;

function arbiterValidator(): ValidateFunction {
  if (compiled === undefined) {
    const ajv = new Ajv({ strict: true, allErrors: false });
    ajv.addSchema(flowSchema);
    compiled = ajv.compile(arbiterFileSchema);
  }
  return compiled;
}

/** A flow's arbiter as a file. */
export function arbiterFileOf(flow: Flow): ArbiterFile {
  const json = flowToJson(flow);
  return { stretto_arbiter: ARBITER_FORMAT, model: json.model, cases: flow.provenance.arbiterCases, predicates: json.predicates, weighed: json.weighed, folds: json.folds };
}

/** A flow's arbiter. */
export function arbiterOf(flow: Flow): Arbiter {
  return { model: flow.model, cases: flow.provenance.arbiterCases, predicates: flow.predicates, weighed: flow.weighed, folds: flow.folds };
}

function fromFile(json: ArbiterFile): Arbiter {
  const predicate = (p: PredicateJson): Predicate => ({ id: p.id, favors: p.favors, question: p.question, yes: p.yes, no: p.no });
  return {
    model: json.model,
    cases: json.cases,
    predicates: json.predicates.map(predicate),
    weighed: json.weighed.map(predicate),
    folds: json.folds.map((f) => ({ weights: [...f.weights], rates: { sites: new PairMap(f.rates.sites), agree: f.rates.agree, cover: f.rates.cover } })),
  };
}

/** The arbiter in the arbiter file or flow file at `path`; a LearnError says why there is none. */
export function readArbiter(path: string): Arbiter {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new LearnError(`reading ${path}: ${osErrorText(e)}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new LearnError(`${path} is not JSON: ${describeJsonSyntaxError(text)}`);
  }
  const fields: Record<string, unknown> = doc !== null && typeof doc === "object" && !Array.isArray(doc) ? (doc as Record<string, unknown>) : {};
  if ("stretto_arbiter" in fields) {
    const v = fields["stretto_arbiter"];
    if (v !== ARBITER_FORMAT) throw new LearnError(`${path}: arbiter format ${JSON.stringify(v)} is not supported (this build reads ${ARBITER_FORMAT})`);
    const validate = arbiterValidator();
    if (!validate(doc)) throw new LearnError(`${path} is not a stretto arbiter: ${describeSchemaError(validate.errors![0]!)}`);
    return fromFile(doc as ArbiterFile);
  }
  if ("stretto_flow" in fields) {
    let flow: Flow;
    try {
      flow = flowFromJson(doc);
    } catch (e) {
      if (!(e instanceof FlowLoadError)) throw e;
      throw new LearnError(`loading ${path}: ${e.message}`);
    }
    if (flow.folds.length === 0) throw new LearnError(`${path} has no arbiter to take: it was learned without a System-One model`);
    return arbiterOf(flow);
  }
  throw new LearnError(`${path} is neither an arbiter file ("stretto_arbiter") nor a flow ("stretto_flow")`);
}
