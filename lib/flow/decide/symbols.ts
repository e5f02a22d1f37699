/**
 * A live episode as the habit and reach models read it:
 * each step becomes the symbol `(action id * 4 + outcome) * 4096 + feature id`, the
 * feature read from the step's output through the flow's code-feature map.
 */
import type { Json } from "../../trace/json.js";
import { isObject, jsonText } from "../../trace/json.js";
import type { CodeField, FeatureMap, Flow } from "../ir/flow-types.js";
import { mayBeJson } from "../bind/json-path.js";
import { remember } from "../../util/memo.js";
import type { Step } from "./steps.js";

/** The START padding of a context (u32::MAX). */
export const START = 4294967295;
/** What a code field reads when the output has no value there. */
export const MISSING = "∅";

export function symbol(action: number, outcome: number, feature: number): number {
  return (action * 4 + outcome) * 4096 + feature;
}

/** A tool's action id: its index in the flow's vocab, or the unseen id `vocab.length`. */
export function vocabIds(flow: Flow): (tool: string) => number {
  // Asked at every decision; a flow's vocab never changes once loaded.
  let id = idsOf.get(flow);
  if (id === undefined) {
    const ids = new Map<string, number>();
    flow.vocab.forEach((a, i) => {
      if (a.kind === "tool" && !ids.has(a.tool)) ids.set(a.tool, i);
    });
    const unseen = flow.vocab.length;
    idsOf.set(flow, (id = (tool) => ids.get(tool) ?? unseen));
  }
  return id;
}
const idsOf = new WeakMap<Flow, (tool: string) => number>();

function parsed(text: string): Json {
  // An id or a sentence fails the first-character check, without the thrown error's cost.
  if (!mayBeJson(text)) return text;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

/** The keys of a `$.a.b` (or `a.b`) path. */
function keysOf(path: string): readonly string[] {
  const rest = path.startsWith("$") ? path.slice(1) : path;
  return rest.split(".").filter((k) => k !== "");
}

/** Each code field's path split once: a flow has a few, read at every decision and every step learned. */
const pathKeys = new Map<string, readonly string[]>();

/** The value at a `$.a.b` (or `a.b`) path of objects; undefined where the shape differs. */
function at(v: Json, path: string): Json | undefined {
  const keys = pathKeys.get(path) ?? remember(pathKeys, path, keysOf(path));
  let cur: Json | undefined = v;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (!isObject(cur) || !Object.hasOwn(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

function fieldValue(output: Json | undefined, field: CodeField): string {
  const v = output === undefined ? undefined : at(output, field.path);
  if (field.kind === "len") {
    if (!Array.isArray(v)) return MISSING;
    return v.length >= 2 ? "2+" : String(v.length);
  }
  if (v === undefined) return MISSING;
  return typeof v === "string" ? v : jsonText(v);
}

/** What each code field reads from a tool's output text (the learner reads them too). */
export function fieldValues(fields: readonly CodeField[], output: string | undefined): string[] {
  const json = output === undefined ? undefined : parsed(output);
  return fields.map((f) => fieldValue(json, f));
}

/** A step's feature id under a code-feature map: the id of its tool's field values, or 0. */
export function featureIn(map: FeatureMap, tool: string, output: string | undefined): number {
  const fields = map.fields.get(tool);
  if (fields === undefined || fields.length === 0 || map.ids.size === 0) return 0;
  return map.ids.get([tool, fieldValues(fields, output)]) ?? 0;
}

/** A step's feature id: the id of its tool's field values, or 0. */
export function featureOf(flow: Flow, tool: string, output: string | undefined): number {
  return featureIn(flow.map, tool, output);
}

/** The episode's steps as symbols of the flow's vocab. */
export function encode(flow: Flow, steps: readonly Step[]): number[] {
  const id = vocabIds(flow);
  return steps.map((s) =>
    s.kind === "respond" ? symbol(0, s.outcome, 0) : symbol(id(s.tool), s.outcome, featureOf(flow, s.tool, s.output)),
  );
}
