import { readFileSync } from "node:fs";
import { osErrorText } from "../util/os-errors.js";
import { ProcedureError } from "./error.js";
import { PROCEDURE_FORMAT, isSplit, type Node, type Procedure } from "./ir.js";
import { JsonNumber, isObject, pretty, fromPlain, toPlain, type Json, type JsonObject } from "./json.js";
import { JsonSyntaxError, parseJson } from "./json-parse.js";
import { procedureProblem } from "./schema.js";

/** Reads a procedure file; every failure is a `ProcedureError` saying what was wrong. */
export function loadProcedure(path: string): Procedure {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new ProcedureError(`reading ${path}: ${osErrorText(err)}`);
  }
  return procedureFromJson(text);
}

/**
 * A procedure from its JSON text. The version is checked before anything else, so a file
 * of another format is named as such rather than reported by its first odd field.
 */
export function procedureFromJson(text: string): Procedure {
  let root: Json;
  try {
    root = parseJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new ProcedureError(err.message);
    throw err;
  }
  const version = isObject(root) ? root.get("stretto_procedure") : undefined;
  if (!(version instanceof JsonNumber) || !version.integer || version.text.startsWith("-")) {
    throw new ProcedureError("not a stretto procedure: no `stretto_procedure` version");
  }
  if (BigInt(version.text) !== BigInt(PROCEDURE_FORMAT)) {
    throw new ProcedureError(`procedure format ${BigInt(version.text)} is not supported (this build reads ${PROCEDURE_FORMAT})`);
  }
  const plain = toPlain(root) as Record<string, unknown>;
  const problem = procedureProblem(plain);
  if (problem !== undefined) throw new ProcedureError(problem);
  const obj = root as JsonObject;
  const handoffArguments = obj.get("handoff_arguments");
  return {
    stretto_procedure: PROCEDURE_FORMAT,
    domain: plain["domain"] as string,
    provenance: obj.get("provenance") ?? null,
    symbolic: plain["symbolic"] as boolean,
    max_calls: plain["max_calls"] as number,
    stop: plain["stop"] as string,
    handoff: plain["handoff"] as string,
    handoff_arguments: isObject(handoffArguments) ? handoffArguments : new Map<string, Json>(),
    reads: new Set(plain["reads"] as string[]),
    vocab: new Set(plain["vocab"] as string[]),
    trees: new Map(Object.entries(plain["trees"] as Record<string, unknown>).map(([site, n]) => [site, node(n)])),
    fallback: node(plain["fallback"]),
    checks: (plain["checks"] as Procedure["checks"]).map((c) => ({
      phrase: c.phrase,
      probe: c.probe,
      contains: [...c.contains],
      lacks: [...c.lacks],
    })),
  };
}

/**
 * A validated node, keeping only the fields the run reads. A node is read as a split when
 * it is a whole valid split, else as a leaf: an object with `calls` and a broken split
 * beside it is a leaf.
 */
function node(raw: unknown): Node {
  const o = raw as Record<string, unknown>;
  if (fitsSplit(o)) return { feature: o["feature"] as string, yes: node(o["yes"]), no: node(o["no"]) };
  return { calls: (o["calls"] as Array<[string, number]>).map(([a, n]) => [a, n]) };
}

function fitsSplit(o: Record<string, unknown>): boolean {
  return typeof o["feature"] === "string" && fitsNode(o["yes"]) && fitsNode(o["no"]);
}

function fitsNode(x: unknown): boolean {
  if (typeof x !== "object" || x === null || Array.isArray(x)) return false;
  const o = x as Record<string, unknown>;
  return fitsSplit(o) || fitsLeaf(o["calls"]);
}

function fitsLeaf(calls: unknown): boolean {
  return (
    Array.isArray(calls) &&
    calls.every(
      (c) => Array.isArray(c) && c.length === 2 && typeof c[0] === "string" && Number.isInteger(c[1]) && (c[1] as number) >= 0,
    )
  );
}

/** A procedure as JSON text (one-space indent is the exporter's; two here), readable again by `procedureFromJson`. */
export function procedureToJson(p: Procedure): string {
  const nodeJson = (n: Node): unknown =>
    isSplit(n) ? { feature: n.feature, yes: nodeJson(n.yes), no: nodeJson(n.no) } : { calls: n.calls };
  const value = fromPlain({
    stretto_procedure: p.stretto_procedure,
    domain: p.domain,
    symbolic: p.symbolic,
    max_calls: p.max_calls,
    stop: p.stop,
    handoff: p.handoff,
    reads: [...p.reads],
    vocab: [...p.vocab],
    trees: Object.fromEntries([...p.trees].map(([site, n]) => [site, nodeJson(n)])),
    fallback: nodeJson(p.fallback),
    checks: p.checks,
  }) as JsonObject;
  value.set("provenance", p.provenance);
  value.set("handoff_arguments", p.handoff_arguments);
  return `${pretty(value)}\n`;
}
