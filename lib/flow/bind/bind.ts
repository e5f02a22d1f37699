/**
 * Binding a lookup's arguments (`pick`, and `bindByName` for a tool training never called):
 * each required argument takes a value from what the session
 * has shown, and the binding comes with the chance, learned in training, that those are the
 * arguments the agent itself would pass.
 */
import type { Bindings, Flow } from "../ir/flow-types.js";
import type { Episode, ToolCall } from "../../trace/episode-types.js";
import { compareCodePoints, type Json } from "../../trace/json.js";
import { atPath, namedValues, valueText, type Found } from "./json-path.js";
import { mentions } from "./mentions.js";
import { SessionView, type UsedValues } from "./session.js";
import { chooseValue } from "./choose-value.js";
import { rulesOf } from "./sources.js";
import { mapIn, remember } from "../../util/memo.js";

/** An argument passed in at least this share of a tool's training calls is required. */
export const REQUIRED_SHARE = 0.9;

/**
 * Whether the customer had mentioned the values a binding picks (its mention class): not at
 * all, the picked value, another value, or the record the value belongs to.
 */
export type Mention = "none" | "picked" | "other" | "described";

/** Bound arguments, and the chance that they are the agent's own. */
export interface Bound {
  args: Record<string, Json>;
  chance: number;
}

/** A binding, or why the lookup cannot be bound (the text after `{tool}: ` in a reason). */
export type Binding = ({ ok: true } & Bound) | { ok: false; why: string };

/** What `pick` gives: arguments and their mention class, or why there are none. */
export type Picked = { ok: true; args: Record<string, Json>; mention: Mention } | { ok: false; why: string };

const fail = (why: string): { ok: false; why: string } => ({ ok: false, why });

const NEVER_CALLED = Object.freeze(fail("never called in training"));
const ALREADY_LOOKED_UP = Object.freeze(fail("already looked up"));

/** A reason naming the argument a lookup cannot bind. */
type ArgFailure = (arg: string) => string;
const noListSource: ArgFailure = (arg) => `no source for the list \`${arg}\` (the LLM supplies it)`;
const noListLeft: ArgFailure = (arg) => `no list left to pass as \`${arg}\``;
const neverString: ArgFailure = (arg) => `\`${arg}\` never took a string in training`;
const noSource: ArgFailure = (arg) => `no source for \`${arg}\` (the LLM supplies it)`;
const nothingLeft: ArgFailure = (arg) => `nothing left to pass as \`${arg}\``;

/** Each failure by reason and argument, made once: a pick fails the same way at many decisions (and most picks the learner scores fail). Shared and frozen. */
const argFailures = new Map<ArgFailure, Map<string, { ok: false; why: string }>>();

function failOn(reason: ArgFailure, arg: string): { ok: false; why: string } {
  const byArg = mapIn(argFailures, reason);
  return byArg.get(arg) ?? remember(byArg, arg, Object.freeze(fail(reason(arg))));
}

/** The arguments passed in at least REQUIRED_SHARE of `tool`'s training calls, sorted. */
export function requiredArgs(bindings: Bindings, tool: string): readonly string[] | undefined {
  let memo = requiredMemo.get(bindings);
  if (memo === undefined) requiredMemo.set(bindings, (memo = new Map<string, string[] | undefined>()));
  if (memo.has(tool)) return memo.get(tool);
  const args = requiredOf(bindings, tool);
  memo.set(tool, args);
  return args;
}

/** Each flow's required arguments, worked out once per tool (they are read at every decision). */
const requiredMemo = new WeakMap<Bindings, Map<string, string[] | undefined>>();

function requiredOf(bindings: Bindings, tool: string): string[] | undefined {
  const counts = bindings.args.get(tool);
  if (counts === undefined) return undefined;
  const out: string[] = [];
  for (const [arg, n] of counts.passed) if (n >= REQUIRED_SHARE * counts.calls) out.push(arg);
  return out.sort(compareCodePoints);
}

/** `(a + 1) / (n + 2)`: the chance of agreeing after `a` agreements in `n` tries. */
export function smoothed([a, n]: readonly [number, number]): number {
  return (a + 1) / (n + 2);
}

/** A lookup made with no arguments: `(bare + 1) / (calls + 2)` when `bare` lists it, else 1. */
export function bareChance(bindings: Bindings, tool: string): number {
  const bare = bindings.bare.get(tool);
  const counts = bindings.args.get(tool);
  return bare !== undefined && counts !== undefined ? (bare + 1) / (counts.calls + 2) : 1;
}

/** The chance of a binding with arguments, by its mention class (smoothed training counts). */
export function mentionChance(bindings: Bindings, tool: string, mention: Mention): number {
  const [unmentioned, mentioned] = bindings.agreed.get(tool) ?? [
    [0, 0],
    [0, 0],
  ];
  const c = smoothed(unmentioned);
  const scored = (count: readonly [number, number] | undefined): number =>
    count === undefined ? c : (count[0] + 2 * c) / (count[1] + 2);
  switch (mention) {
    case "none":
      return c;
    case "picked":
      return smoothed(mentioned);
    case "other":
      return scored(bindings.namedOther.get(tool));
    case "described":
      return scored(bindings.describedRead.get(tool));
  }
}

/** The constants learned for `tool`, as `[arg, value]`: worked out once per tool, like `requiredArgs` (shared: read, never changed). */
function constantsOf(bindings: Bindings, tool: string): readonly (readonly [string, Json])[] {
  let memo = constantsMemo.get(bindings);
  if (memo === undefined) constantsMemo.set(bindings, (memo = new Map<string, [string, Json][]>()));
  let out = memo.get(tool);
  if (out === undefined) {
    out = [];
    for (const [[t, arg], value] of bindings.constants) if (t === tool) out.push([arg, value as Json]);
    memo.set(tool, out);
  }
  return out;
}
const constantsMemo = new WeakMap<Bindings, Map<string, [string, Json][]>>();

function constantFor(constants: readonly (readonly [string, Json])[], arg: string): readonly [string, Json] | undefined {
  for (const c of constants) if (c[0] === arg) return c;
  return undefined;
}

/**
 * Arguments for a lookup of `tool` after the last step the view holds, and whether the
 * customer mentioned what they pick. Every binding rule: constants, list arguments, the
 * source rules, the site's order or recency, mentions, and the flags that make the
 * mention class. Values already passed to `tool` (calls in flight included) are skipped.
 */
export function pick(bindings: Bindings, tool: string, view: SessionView): Picked {
  const required = requiredArgs(bindings, tool);
  if (required === undefined) return NEVER_CALLED;
  const constants = constantsOf(bindings, tool);
  if (required.length === 0) {
    if (view.called(tool)) return ALREADY_LOOKED_UP;
    return { ok: true, args: Object.fromEntries(constants), mention: "picked" };
  }
  const bound: Record<string, Json> = {};
  let allMentioned = true;
  let otherNamed = false;
  let described = false;
  for (const arg of required) {
    const constant = constantFor(constants, arg);
    if (constant !== undefined) {
      bound[arg] = constant[1];
      continue;
    }
    const listed = bindings.lists.get([tool, arg]);
    if (listed !== undefined) {
      const rules = rulesOf(listed);
      let list: string[] | undefined;
      for (let i = view.outputs.length - 1; i >= 0 && list === undefined; i--) {
        const out = view.outputs[i]!;
        for (const [from, path] of rules) {
          if (from !== out.tool) continue;
          const values = atPath(out.value, path).map((f) => f.value);
          if (values.length > 0 && !view.used(tool, arg).has(valueText(values))) {
            list = values;
            break;
          }
        }
      }
      if (list === undefined) {
        return failOn(rules.length === 0 ? noListSource : noListLeft, arg);
      }
      allMentioned &&= list.every((v) => mentions(view.customer, v));
      bound[arg] = list;
      continue;
    }
    const traced = bindings.sources.get([tool, arg]);
    if (traced === undefined) return failOn(neverString, arg);
    const rules = rulesOf(traced);
    const used = view.used(tool, arg);
    const { chosen, anyMentioned } = chooseValue(bindings, tool, arg, view, rules, used);
    if (chosen === undefined) {
      return failOn(rules.length === 0 ? noSource : nothingLeft, arg);
    }
    allMentioned &&= chosen.mentioned;
    otherNamed ||= !chosen.mentioned && anyMentioned;
    if (!chosen.mentioned && !described) described = describedRead(view, tool, arg, chosen.value, chosen.list, used);
    bound[arg] = chosen.value;
  }
  for (const [arg, value] of constants) if (!(arg in bound)) bound[arg] = value;
  const mention: Mention = allMentioned ? "picked" : otherNamed ? "other" : described ? "described" : "none";
  return { ok: true, args: bound, mention };
}

/**
 * Whether the record the customer described has been read: among the other values of the
 * pick's list already passed as `arg`, what those calls returned holds a value the customer
 * gave that another of them lacks (a value every record carries, like an address, does not
 * count). Needs at least two records read.
 */
function describedRead(view: SessionView, tool: string, arg: string, picked: string, list: readonly Found[], used: UsedValues): boolean {
  // Run after most picks: one pass over the list, and arrays only once two records were read.
  let others = 0;
  let first: ReadonlySet<string> | undefined;
  let read: ReadonlySet<string>[] | undefined;
  for (const f of list) {
    const u = f.value;
    if (u === picked || !used.has(u)) continue;
    others++;
    const r = view.returned(tool, arg, u);
    if (r === undefined) continue;
    if (first === undefined) first = r;
    else (read ??= [first]).push(r);
  }
  if (others < 2 || read === undefined) return false;
  // A value some record lacks is asked about the customer; that question (a text search) is the costly one.
  for (const r of read) {
    for (const k of r) if (lacking(read, k) && view.gave(k)) return true;
  }
  return false;
}

/** Whether one of `read` lacks `k`. */
function lacking(read: readonly ReadonlySet<string>[], k: string): boolean {
  for (const other of read) if (!other.has(k)) return true;
  return false;
}

/**
 * Arguments for `tool`, which training never called, by name: each
 * documented argument takes the first string under a key of that name in an earlier output,
 * most recent first, preferring a mentioned one and skipping values already passed to it.
 * Chance 1/2; a tool without arguments binds `{}` at chance 1, once.
 */
export function bindByName(tool: string, args: readonly string[], view: SessionView): Binding {
  if (args.length === 0) return view.called(tool) ? fail("already looked up") : { ok: true, args: {}, chance: 1 };
  const bound: Record<string, Json> = {};
  for (const arg of [...args].sort(compareCodePoints)) {
    const used = view.used(tool, arg);
    const candidates: { value: string; mentioned: boolean }[] = [];
    const taken = new Set<string>();
    for (let i = view.outputs.length - 1; i >= 0; i--) {
      for (const f of namedValues(view.outputs[i]!.value, arg)) {
        if (taken.has(f.value) || used.has(f.value)) continue;
        taken.add(f.value);
        candidates.push({ value: f.value, mentioned: view.mentioned(f) });
      }
    }
    const chosen = candidates.find((c) => c.mentioned) ?? candidates[0];
    if (chosen === undefined) return fail(`no \`${arg}\` in earlier results to pass`);
    bound[arg] = chosen.value;
  }
  return { ok: true, args: bound, chance: 0.5 };
}

/** Whether the flow offers `tool` through `every_read` (every read at every site). */
function offeredByEveryRead(flow: Flow, tool: string): boolean {
  return flow.sites.everyRead && flow.sites.reads.includes(tool);
}

/**
 * `Bindings::bind_pending`: arguments for a lookup of `tool` after the episode's last step,
 * with `inFlight` (the calls of the turn still awaiting their results) counted as made, so a
 * lookup never repeats them. A tool training never called binds by name only when offered
 * through `every_read`, from the flow manifest's docs.
 */
export function bindPending(flow: Flow, tool: string, episode: Episode, inFlight: readonly ToolCall[] = []): Binding {
  return bindIn(flow, tool, new SessionView(episode, inFlight));
}

/** `bindPending` over a view already built (one view serves every option of a decision). */
export function bindIn(flow: Flow, tool: string, view: SessionView): Binding {
  const bindings = flow.bindings;
  if (!bindings.args.has(tool)) {
    if (!offeredByEveryRead(flow, tool)) return fail("never called in training");
    const docs = flow.manifest.docs.get(tool);
    if (docs === undefined) return fail("never called in training, and its arguments are unknown");
    return bindByName(tool, [...docs.args.keys()], view);
  }
  const picked = pick(bindings, tool, view);
  if (!picked.ok) return picked;
  const required = requiredArgs(bindings, tool)!;
  const chance = required.length === 0 ? bareChance(bindings, tool) : mentionChance(bindings, tool, picked.mention);
  return { ok: true, args: picked.args, chance };
}
