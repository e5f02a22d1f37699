/**
 * Choosing an argument's value from the places a binding looks (sources.ts orders them):
 * every value found, in place order, is a candidate at its first occurrence unless it was
 * already passed; the first candidate the customer mentioned wins, else the first candidate.
 * Whether the customer mentioned any value at all (taken or not) makes the mention class.
 *
 * The search stops at a mentioned candidate, and once it has a first candidate it looks
 * through the rest only where the customer is mentioned (a memo per found list), so a long
 * session costs a lookup per output rather than a set of every value it ever showed.
 */
import type { Bindings } from "../ir/flow-types.js";
import type { Found } from "./json-path.js";
import { foundAt, type SessionView, type UsedValues } from "./session.js";
import { eachPlace, type Source } from "./sources.js";

export interface Chosen {
  value: string;
  mentioned: boolean;
  /** The values found beside it (the list it came from). */
  list: readonly Found[];
}

export interface Choice {
  chosen: Chosen | undefined;
  /** Whether the customer mentioned a value found anywhere (read only when `chosen` is not mentioned). */
  anyMentioned: boolean;
}

export function chooseValue(bindings: Bindings, tool: string, arg: string, view: SessionView, rules: readonly Source[], used: UsedValues): Choice {
  // Run at every pick, and most picks take their first candidate: the sets and the list below
  // are made when a second value or list needs them.
  let taken: Set<string> | undefined;
  // Lists looked past without noting their values (nothing in them was mentioned).
  let skipped: (readonly Found[])[] | undefined;
  // An output read again gives the same found list (`foundAt` keeps it): looked through once.
  let looked: readonly Found[] | undefined;
  let lookedMore: Set<readonly Found[]> | undefined;
  let first: Chosen | undefined;
  let chosen: Chosen | undefined;
  let anyMentioned = false;
  // When no place holds a value the customer mentions, the first candidate is the choice;
  // and where the long past holds only values passed already, it is not looked through.
  const noneMentioned = !anyMentionedAt(view, rules);
  const above = noneMentioned && allSpentBelow(view, rules, tool, arg);

  eachPlace(bindings, tool, arg, view, rules, (output, path) => {
    if (first !== undefined && noneMentioned) return true;
    const list = foundAt(output, path);
    if (first !== undefined && !view.mentionsAny(list)) {
      (skipped ??= []).push(list);
      return false;
    }
    if (looked === list || lookedMore?.has(list) === true) return false;
    if (looked === undefined) looked = list;
    else (lookedMore ??= new Set([looked])).add(list);
    for (const f of list) {
      const mentioned = view.mentioned(f);
      anyMentioned ||= mentioned;
      if ((mentioned ? occurredBefore(f.value, taken, skipped) : taken?.has(f.value) === true) || used.has(f.value)) continue;
      (taken ??= new Set<string>()).add(f.value);
      // Only the first candidate and a mentioned one are kept: the others are never made.
      if (mentioned) {
        chosen = { value: f.value, mentioned, list };
        first ??= chosen;
        return true;
      }
      first ??= { value: f.value, mentioned, list };
    }
    return false;
  }, above);
  return { chosen: chosen ?? first, anyMentioned };
}

/** Whether `value` was a candidate already, or was in a list looked past. */
function occurredBefore(value: string, taken: ReadonlySet<string> | undefined, skipped: readonly (readonly Found[])[] | undefined): boolean {
  if (taken?.has(value) === true) return true;
  if (skipped !== undefined) for (const l of skipped) for (const f of l) if (f.value === value) return true;
  return false;
}

function anyMentionedAt(view: SessionView, rules: readonly Source[]): boolean {
  for (const [from, path] of rules) if (view.mentionedAt(from, path)) return true;
  return false;
}

function allSpentBelow(view: SessionView, rules: readonly Source[], tool: string, arg: string): boolean {
  for (const [from, path] of rules) if (!view.spentBelow(from, path, tool, arg)) return false;
  return true;
}
