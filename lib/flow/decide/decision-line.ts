/**
 * The flow log's decision line: the decision serialized, plus the
 * engine's fields, keys sorted at every depth (serde_json's `Value`), compact. Optional
 * fields print as null, except `policy`, `shadow` and `withheld`, which are omitted when
 * absent. Numbers are written the JavaScript way (`1`, not `1.0`).
 */
import { jsonText, type JsonObject } from "../../trace/json.js";
import type { Next, Policy } from "./types.js";

export interface DecisionFields {
  /** The agent's JSON-RPC id of the call the run follows, as sent (number or string). */
  after: number | string;
  /** `decide#<i>`. */
  address: string;
  /** The decision's latency in ms (rounded down to an integer). */
  ms: number;
  /** True in shadow mode. */
  shadow?: boolean;
  /** Why the proposed lookup is left to the agent. */
  withheld?: string;
}

function record(m: ReadonlyMap<string, number>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of m) out[k] = v;
  return out;
}

export function policyJson(policy: Policy): JsonObject {
  return {
    decider: policy.decider,
    threshold: policy.threshold,
    epsilon: policy.epsilon,
    explored: policy.explored,
    greedy: policy.greedy,
    propensity: policy.propensity,
    task_id: policy.task_id,
    events: policy.events,
    options: policy.options.map((o) => {
      const item: JsonObject = { tool: o.tool, p: o.p, habit: o.habit, binding: o.binding, arguments: o.arguments };
      if (o.unbound !== undefined) item["unbound"] = o.unbound;
      return item;
    }),
  };
}

/** The decision line as a JSON object (keys in any order; {@link decisionLine} sorts them). */
export function decisionJson(next: Next, fields: DecisionFields): JsonObject {
  const line: JsonObject = { action: next.proposal.action };
  if (next.proposal.action === "lookup") {
    line["tool"] = next.proposal.tool;
    line["arguments"] = next.proposal.arguments;
  } else {
    line["reason"] = next.proposal.reason;
  }
  line["site"] = next.site;
  line["probs"] = record(next.probs);
  line["prob"] = next.prob;
  line["binding"] = next.binding;
  line["oracle"] = record(next.oracle);
  line["predicates"] = record(next.predicates);
  line["key"] = next.key;
  if (next.policy !== undefined) line["policy"] = policyJson(next.policy);
  line["after"] = fields.after;
  line["address"] = fields.address;
  line["ms"] = Math.floor(fields.ms);
  if (fields.shadow === true) line["shadow"] = true;
  if (fields.withheld !== undefined) line["withheld"] = fields.withheld;
  return line;
}

/**
 * The decision line's text (no newline): compact JSON, keys sorted at every depth. Written
 * field by field in the sorted order of its keys (a line per decision, on the path the
 * agent waits on), each value as `jsonText` writes it; the same text as
 * `jsonText(decisionJson(next, fields))`, which the decide specs check.
 */
export function decisionLine(next: Next, fields: DecisionFields): string {
  const { proposal } = next;
  let out = `{"action":${str(proposal.action)},"address":${str(fields.address)},"after":${typeof fields.after === "string" ? str(fields.after) : num(fields.after)}`;
  if (proposal.action === "lookup") out += `,"arguments":${jsonText(proposal.arguments)}`;
  out += `,"binding":${numberText(next.binding)},"key":${next.key === null ? "null" : str(next.key)},"ms":${num(Math.floor(fields.ms))}`;
  out += `,"oracle":${mapText(next.oracle)}`;
  if (next.policy !== undefined) out += `,"policy":${jsonText(policyJson(next.policy))}`;
  out += `,"predicates":${mapText(next.predicates)},"prob":${numberText(next.prob)},"probs":${mapText(next.probs)}`;
  if (proposal.action !== "lookup") out += `,"reason":${str(proposal.reason)}`;
  if (fields.shadow === true) out += `,"shadow":true`;
  out += `,"site":${next.site === null ? "null" : str(next.site)}`;
  if (proposal.action === "lookup") out += `,"tool":${str(proposal.tool)}`;
  if (fields.withheld !== undefined) out += `,"withheld":${str(fields.withheld)}`;
  return out + "}";
}

function numberText(n: number | null): string {
  return n === null ? "null" : num(n);
}

/** A number as `JSON.stringify` writes it, without its serializer: a finite one as `String` writes it, else null. */
function num(n: number): string {
  return Number.isFinite(n) ? String(n) : "null";
}

/**
 * A string as `JSON.stringify` writes it. One with nothing to escape (no quote, backslash,
 * control character or surrogate) is quoted as it is, without the serializer (a decision
 * line holds a dozen such strings: tool names, sites, reasons).
 */
function str(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** A map of numbers as a JSON object, keys sorted (already in order, the options' order, it is written as it is). */
function mapText(m: ReadonlyMap<string, number>): string {
  if (m.size === 0) return "{}";
  let out = "{";
  let prev: string | undefined;
  for (const [k, v] of m) {
    if (k === "__proto__" || hasHighChar(k) || (prev !== undefined && !(prev < k))) return jsonText(record(m));
    out += `${prev === undefined ? "" : ","}${str(k)}:${num(v)}`;
    prev = k;
  }
  return out + "}";
}

function hasHighChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0xd800) return true;
  return false;
}
