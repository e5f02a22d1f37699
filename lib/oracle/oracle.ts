/**
 * The System-One model's interface (docs/flows.md, "The System-One model"): a request holds a state and
 * typed questions, the answer holds one typed answer per question. Three oracles implement
 * it (`jev`, `replay`, `mock`); the flow's arbiter and the confirmation judge both ask
 * through it, so they share one cache and its keys.
 */
import { isObject } from "../util/is-object.js";

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Yes/no; the answer is the probability of "yes". `criteria` may be absent. */
export interface NoulQuestion {
  type: "noul";
  instructions: string;
  criteria?: { true: string; false: string };
}

/** Pick one option; `criteria` maps each option to its rubric (≤ 255 chars). */
export interface ChoiceQuestion {
  type: "choice";
  instructions: string;
  criteria: Record<string, string>;
}

/** Rate against 2–10 ordered level descriptions. */
export interface ScoreQuestion {
  type: "score";
  instructions: string;
  criteria: string[];
}

export type Question = NoulQuestion | ChoiceQuestion | ScoreQuestion;

/** `{"model":"jev-latest","state":…,"questions":{id: Question}}`: what is sent, and what is hashed. */
export interface OracleRequest {
  model: string;
  state: JsonValue;
  questions: Record<string, Question>;
}

export interface NoulAnswer {
  type: "noul";
  noul: number;
}

export interface ChoiceAnswer {
  type: "choice";
  choice: string;
  probabilities: Record<string, number>;
  confidence: number;
}

export interface ScoreAnswer {
  type: "score";
  score: number;
  probabilities: Record<string, number>;
  confidence: number;
  /** Whatever the service sends; `null` when absent. */
  legend: JsonValue;
}

export type Answer = NoulAnswer | ChoiceAnswer | ScoreAnswer;

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

/** `{"model":"jev-1.13.0","answers":{id: Answer},"usage":{…}}`; `usage` is zeros when missing. */
export interface OracleResponse {
  model: string;
  answers: Record<string, Answer>;
  usage: Usage;
}

export type OracleKind = "jev" | "replay" | "mock";

/** Anything that answers typed questions about a state. */
export interface Oracle {
  readonly kind: OracleKind;
  /**
   * Answers every question in `request`. Rejects with an {@link OracleError} whose message
   * is the reason, ready to follow `the System-One model failed: ` or to be logged.
   */
  ask(request: OracleRequest): Promise<OracleResponse>;
}

/** Why a question went unanswered; `message` is the whole reason, without a stack. */
export class OracleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OracleError";
  }
}

/** The default model id: `TYPESAFE_DEFAULT_MODEL`, or `jev-latest`. */
export const DEFAULT_MODEL = "jev-latest";

export function defaultModel(env: NodeJS.ProcessEnv = process.env): string {
  const model = env["TYPESAFE_DEFAULT_MODEL"];
  return model === undefined || model === "" ? DEFAULT_MODEL : model;
}

/** The probability of "yes" for question `id`, or `undefined` when it is no yes/no answer. */
export function noul(response: OracleResponse, id: string): number | undefined {
  const answer = Object.hasOwn(response.answers, id) ? response.answers[id] : undefined;
  return answer?.type === "noul" ? answer.noul : undefined;
}

/**
 * Reads a response the service (or the cache) holds, checking each answer's shape as a typed
 * decoder would: a cached or served answer of the wrong shape is refused rather than read
 * as a wrong probability. Throws an `Error` saying what is wrong.
 */
export function parseResponse(text: string): OracleResponse {
  const value: unknown = JSON.parse(text);
  if (!isObject(value)) throw new Error("expected an object");
  if (typeof value["model"] !== "string") throw new Error('missing or non-string "model"');
  const answersIn = value["answers"];
  if (!isObject(answersIn)) throw new Error('missing or non-object "answers"');
  const answers: Record<string, Answer> = {};
  for (const [id, raw] of Object.entries(answersIn)) {
    Object.defineProperty(answers, id, { value: answer(id, raw), enumerable: true, writable: true, configurable: true });
  }
  return { model: value["model"], answers, usage: usage(value["usage"]) };
}

function answer(id: string, raw: unknown): Answer {
  if (!isObject(raw)) throw new Error(`answer ${JSON.stringify(id)} is not an object`);
  const field = (name: string): number => {
    const v = raw[name];
    if (typeof v !== "number") throw new Error(`answer ${JSON.stringify(id)}: missing or non-number "${name}"`);
    return v;
  };
  const probabilities = (): Record<string, number> => {
    const p = raw["probabilities"];
    if (!isObject(p) || !Object.values(p).every((x) => typeof x === "number")) {
      throw new Error(`answer ${JSON.stringify(id)}: "probabilities" is not an object of numbers`);
    }
    return p as Record<string, number>;
  };
  switch (raw["type"]) {
    case "noul":
      return { type: "noul", noul: field("noul") };
    case "choice": {
      const choice = raw["choice"];
      if (typeof choice !== "string") throw new Error(`answer ${JSON.stringify(id)}: missing or non-string "choice"`);
      return { type: "choice", choice, probabilities: probabilities(), confidence: field("confidence") };
    }
    case "score":
      return {
        type: "score",
        score: field("score"),
        probabilities: probabilities(),
        confidence: field("confidence"),
        legend: raw["legend"] === undefined ? null : (raw["legend"] as JsonValue),
      };
    default:
      throw new Error(`answer ${JSON.stringify(id)}: unknown type ${JSON.stringify(raw["type"])}`);
  }
}

function usage(raw: unknown): Usage {
  if (raw === undefined || raw === null) return { input_tokens: 0, output_tokens: 0 };
  if (!isObject(raw)) throw new Error('"usage" is not an object');
  const count = (name: string): number => {
    const v = raw[name];
    if (v === undefined) return 0;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new Error(`"usage.${name}" is not a count`);
    return v;
  };
  return { input_tokens: count("input_tokens"), output_tokens: count("output_tokens") };
}
