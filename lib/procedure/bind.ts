import { ProcedureError } from "./error.js";
import type { Procedure } from "./ir.js";
import { compact, isObject, jsonEqual, sortedKeys, type Json, type JsonObject } from "./json.js";
import { JsonSyntaxError, parseJson, tryParseJson } from "./json-parse.js";
import { members, stringsAt } from "./path.js";
import type { RunState } from "./state.js";
import { findShape } from "./text.js";

/** The strings passed so far, per (tool, argument name), for the whole run. */
export class Passed {
  private readonly sets = new Map<string, Set<string>>();

  private key(tool: string, arg: string): string {
    return `${tool}\u0000${arg}`;
  }

  get(tool: string, arg: string): ReadonlySet<string> {
    return this.sets.get(this.key(tool, arg)) ?? new Set();
  }

  /** Records a call's string arguments; other values are not recorded. */
  record(tool: string, args: JsonObject): void {
    for (const [arg, v] of args) {
      if (typeof v !== "string") continue;
      const k = this.key(tool, arg);
      const set = this.sets.get(k) ?? new Set<string>();
      set.add(v);
      this.sets.set(k, set);
    }
  }
}

/** An action split into its tool and its arguments as written. */
export interface Unlabelled {
  tool: string;
  args: JsonObject;
}

/**
 * The tool and arguments of an action (`tool` or `tool{json}`; the name ends at the first
 * `{`). A bare hand-off takes the procedure's hand-off arguments. JSON that does not parse
 * aborts the run: the procedure itself is broken.
 */
export function unlabel(action: string, procedure: Procedure): Unlabelled {
  const brace = action.indexOf("{");
  if (brace === -1) {
    return { tool: action, args: action === procedure.handoff ? new Map<string, Json>(procedure.handoff_arguments) : new Map<string, Json>() };
  }
  const tool = action.slice(0, brace);
  let parsed: Json;
  try {
    parsed = parseJson(action.slice(brace));
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new ProcedureError(`action ${action}: ${err.message}`);
    throw err;
  }
  if (!isObject(parsed)) throw new ProcedureError(`action ${action}: invalid type: ${kind(parsed)}, expected a map`);
  return { tool, args: parsed };
}

function kind(v: Json): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "sequence";
  if (typeof v === "string") return `string ${JSON.stringify(v)}`;
  if (typeof v === "boolean") return `boolean \`${v}\``;
  return `number \`${compact(v)}\``;
}

/**
 * The concrete arguments of a call: each symbol bound from the ticket or an earlier
 * result, in key order; undefined when any symbol does not bind. Literal procedures, and
 * the hand-off, pass their arguments as written.
 */
export function bindArguments(call: Unlabelled, procedure: Procedure, state: RunState, passed: Passed): JsonObject | undefined {
  if (!procedure.symbolic || call.tool === procedure.handoff) return call.args;
  const out: JsonObject = new Map();
  for (const name of sortedKeys(call.args)) {
    const bound = bindValue(call.args.get(name)!, state, passed.get(call.tool, name));
    if (bound === undefined) return undefined;
    out.set(name, bound);
  }
  return out;
}

const TICKET = "@ticket";

/**
 * One argument: a value that is not an `@` symbol as it is; `@ticket<shape>` the first
 * text of that shape in the ticket; `@TOOL$PATH[?{apart}]` a string from TOOL's results.
 */
export function bindValue(value: Json, state: RunState, passed: ReadonlySet<string>): Json | undefined {
  if (typeof value !== "string" || !value.startsWith("@")) return value;
  if (value.startsWith(TICKET)) return findShape(value.slice(TICKET.length), state.ticket);
  const symbol = value.slice(1);
  const dollar = symbol.indexOf("$");
  if (dollar === -1) return undefined;
  const tool = symbol.slice(0, dollar);
  let path = symbol.slice(dollar);
  let apart: JsonObject | undefined;
  const q = path.indexOf("?");
  if (q !== -1) {
    const fields = tryParseJson(path.slice(q + 1));
    if (!isObject(fields)) return undefined;
    apart = fields;
    path = path.slice(0, q);
  }
  const listed = path.includes("[*]");

  // Every earlier result of TOOL with something left at PATH, most recent first.
  const found: Array<{ value: Json; first: string }> = [];
  for (let i = state.outputs.length - 1; i >= 0; i--) {
    const output = state.outputs[i]!;
    if (output.tool !== tool) continue;
    let values = stringsAt(output.value, path);
    if (listed) values = values.filter((v) => !passed.has(v));
    if (apart !== undefined) {
      const like = likeValues(output.value, path, apart, passed);
      values = [...like, ...values.filter((v) => !like.includes(v))];
    }
    if (values.length > 0) found.push({ value: output.value, first: values[0]! });
  }
  if (!listed) {
    // One value per result: prefer the result about what the ticket names.
    const naming = found.find((f) => state.names(f.value));
    if (naming !== undefined) return naming.first;
  }
  return found[0]?.first;
}

/**
 * The values of the records that look like the one the procedure was shown (every
 * `apart` field equal), not passed before, in document order.
 */
function likeValues(value: Json, path: string, apart: JsonObject, passed: ReadonlySet<string>): string[] {
  const { records, rest } = members(value, path);
  const out: string[] = [];
  for (const record of records) {
    if (!isObject(record)) continue;
    const alike = [...apart].every(([k, want]) => {
      const have = record.get(k);
      return have !== undefined && jsonEqual(have, want);
    });
    if (!alike) continue;
    for (const v of stringsAt(record, rest)) if (!passed.has(v)) out.push(v);
  }
  return out;
}

/** The repeat guard's key: the tool, with its bound arguments when it has any. */
export function guardKey(tool: string, args: JsonObject): string {
  return args.size === 0 ? tool : `${tool}${compact(args)}`;
}
