/**
 * Reads a program from its JSON form (fugue program format 1) and
 * makes the structural checks fugue makes before it resolves names: the version, the
 * nesting limit, unknown fields, identifier names and finite literals. Name resolution
 * (unknown variables and distributions, arity, `break` outside a loop) is the compile
 * check's job (`compile-program.ts`).
 */
import { invalidJson, ProgramError, tooDeep, unsupportedVersion } from "./program-error.js";
import {
  BINARY_OPS,
  MAX_NESTING,
  PROGRAM_FORMAT_VERSION,
  type Addr,
  type DistCall,
  type Expr,
  type Program,
  type Stmt,
} from "./program-types.js";
import { programDepth } from "./program-depth.js";
import { errorText } from "../../util/error-text.js";

/** Words the text syntax reserves; they cannot name variables, distributions or functions. */
const RESERVED = new Set(["let", "mut", "observe", "factor", "for", "in", "if", "else", "break", "pure", "true", "false"]);

/** An ASCII identifier (`[A-Za-z_][A-Za-z0-9_]*`) that is not reserved. */
export function isIdentifier(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !RESERVED.has(s);
}

/** A program from its JSON text. */
export function parseProgramText(text: string): Program {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalidJson(errorText(err));
  }
  return parseProgram(value);
}

/** A program from its parsed JSON value. Throws a ProgramError saying what is wrong. */
export function parseProgram(value: unknown): Program {
  const doc = object(value, "a program");
  if (!("fugue_program" in doc)) throw invalidJson("missing field `fugue_program` (the program format version)");
  const version = doc["fugue_program"];
  if (typeof version !== "number" || !Number.isInteger(version) || version < 0) {
    throw invalidJson(`\`fugue_program\` must be a non-negative integer format version, found ${JSON.stringify(version)}`);
  }
  if (version !== PROGRAM_FORMAT_VERSION) throw unsupportedVersion(version);
  // Refuse deep documents before walking them recursively.
  const rawDepth = jsonDepth(value);
  if (rawDepth > MAX_NESTING) throw tooDeep(rawDepth, MAX_NESTING);
  fields(doc, ["fugue_program", "body", "ret"], ["fugue_program", "body", "ret"], "the program");
  const program: Program = { fugue_program: version, body: stmts(doc["body"]), ret: expr(doc["ret"]) };
  const depth = programDepth(program);
  if (depth > MAX_NESTING) throw tooDeep(depth, MAX_NESTING);
  return program;
}

/** The nesting depth of a JSON value (objects and arrays count), without recursion. */
function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    max = Math.max(max, d);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

type Obj = Record<string, unknown>;

function object(value: unknown, what: string): Obj {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidJson(`expected ${what} (an object), found ${kindOf(value)}`);
  }
  return value as Obj;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/** Checks an object's fields: every required one present, no unknown one. */
function fields(o: Obj, required: readonly string[], allowed: readonly string[], what: string): void {
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) throw invalidJson(`unknown field \`${key}\` in ${what}, expected one of ${allowed.map((a) => `\`${a}\``).join(", ")}`);
  }
  for (const key of required) {
    if (!(key in o)) throw invalidJson(`missing field \`${key}\` in ${what}`);
  }
}

function array(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw invalidJson(`expected ${what} (an array), found ${kindOf(value)}`);
  return value;
}

function name(value: unknown, kind: "variable" | "distribution" | "function"): string {
  if (typeof value !== "string") throw invalidJson(`expected a ${kind} name (a string), found ${kindOf(value)}`);
  if (!isIdentifier(value)) {
    throw new ProgramError(`${kind} name \`${value}\` is not an identifier (or is a reserved word)`);
  }
  return value;
}

function stmts(value: unknown): Stmt[] {
  return array(value, "a block of statements").map(stmt);
}

function stmt(value: unknown): Stmt {
  const o = object(value, "a statement");
  const tag = o["stmt"];
  const what = `a \`${String(tag)}\` statement`;
  switch (tag) {
    case "sample":
      fields(o, ["var", "addr", "dist"], ["stmt", "var", "addr", "dist"], what);
      return { stmt: "sample", var: name(o["var"], "variable"), addr: addr(o["addr"]), dist: dist(o["dist"]) };
    case "let":
    case "assign":
      fields(o, ["var", "value"], ["stmt", "var", "value"], what);
      return { stmt: tag, var: name(o["var"], "variable"), value: expr(o["value"]) };
    case "observe":
      fields(o, ["addr", "dist", "value"], ["stmt", "addr", "dist", "value"], what);
      return { stmt: "observe", addr: addr(o["addr"]), dist: dist(o["dist"]), value: expr(o["value"]) };
    case "factor":
      fields(o, ["logw"], ["stmt", "logw"], what);
      return { stmt: "factor", logw: expr(o["logw"]) };
    case "for":
      fields(o, ["var", "start", "end", "body"], ["stmt", "var", "start", "end", "body"], what);
      return {
        stmt: "for",
        var: name(o["var"], "variable"),
        start: expr(o["start"]),
        end: expr(o["end"]),
        body: stmts(o["body"]),
      };
    case "if": {
      fields(o, ["cond", "then"], ["stmt", "cond", "then", "else"], what);
      const otherwise = o["else"] === undefined ? [] : stmts(o["else"]);
      const s: Stmt = { stmt: "if", cond: expr(o["cond"]), then: stmts(o["then"]) };
      if (otherwise.length > 0) s.else = otherwise;
      return s;
    }
    case "break":
      fields(o, [], ["stmt"], what);
      return { stmt: "break" };
    default:
      throw invalidJson(
        tag === undefined
          ? "missing field `stmt` in a statement"
          : `unknown statement \`${shown(tag)}\`, expected one of \`sample\`, \`let\`, \`assign\`, \`observe\`, \`factor\`, \`for\`, \`if\`, \`break\``,
      );
  }
}

function addr(value: unknown): Addr {
  const o = object(value, "an address");
  fields(o, ["name"], ["name", "index"], "an address");
  if (typeof o["name"] !== "string") throw invalidJson(`expected an address name (a string), found ${kindOf(o["name"])}`);
  return o["index"] === undefined ? { name: o["name"] } : { name: o["name"], index: expr(o["index"]) };
}

function dist(value: unknown): DistCall {
  const o = object(value, "a distribution call");
  fields(o, ["name"], ["name", "args"], "a distribution call");
  const args = o["args"] === undefined ? [] : array(o["args"], "arguments").map(expr);
  return { name: name(o["name"], "distribution"), args };
}

function number(value: unknown, what: string): number {
  if (typeof value !== "number") throw invalidJson(`expected ${what}, found ${kindOf(value)}`);
  if (!Number.isFinite(value)) throw new ProgramError(`number literal ${value} is not finite (JSON cannot represent it)`);
  return value;
}

function expr(value: unknown): Expr {
  const o = object(value, "an expression");
  const op = o["op"];
  const what = `a \`${String(op)}\` expression`;
  switch (op) {
    case "f64":
      fields(o, ["value"], ["op", "value"], what);
      return { op, value: number(o["value"], "a number") };
    case "int": {
      fields(o, ["value"], ["op", "value"], what);
      const v = number(o["value"], "an integer");
      if (!Number.isSafeInteger(v)) throw invalidJson(`expected an integer, found ${v}`);
      return { op, value: v };
    }
    case "bool":
      fields(o, ["value"], ["op", "value"], what);
      if (typeof o["value"] !== "boolean") throw invalidJson(`expected a boolean, found ${kindOf(o["value"])}`);
      return { op, value: o["value"] };
    case "var":
      fields(o, ["name"], ["op", "name"], what);
      return { op, name: name(o["name"], "variable") };
    case "array":
      fields(o, ["items"], ["op", "items"], what);
      return { op, items: array(o["items"], "items").map(expr) };
    case "index":
      fields(o, ["array", "index"], ["op", "array", "index"], what);
      return { op, array: expr(o["array"]), index: expr(o["index"]) };
    case "len":
      fields(o, ["array"], ["op", "array"], what);
      return { op, array: expr(o["array"]) };
    case "neg":
    case "not":
      fields(o, ["arg"], ["op", "arg"], what);
      return { op, arg: expr(o["arg"]) };
    case "call":
      fields(o, ["func"], ["op", "func", "args"], what);
      return {
        op,
        func: name(o["func"], "function"),
        args: o["args"] === undefined ? [] : array(o["args"], "arguments").map(expr),
      };
    default:
      if (typeof op === "string" && (BINARY_OPS as readonly string[]).includes(op)) {
        fields(o, ["lhs", "rhs"], ["op", "lhs", "rhs"], what);
        return { op: op as (typeof BINARY_OPS)[number], lhs: expr(o["lhs"]), rhs: expr(o["rhs"]) };
      }
      throw invalidJson(op === undefined ? "missing field `op` in an expression" : `unknown expression \`${shown(op)}\``);
  }
}

/** A value named in an error: a string as itself, anything else as its JSON. */
function shown(v: unknown): string {
  return typeof v === "string" ? v : (JSON.stringify(v) ?? String(v));
}
