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
  const taken = new Set<string>();
  // Lists looked past without noting their values (nothing in them was mentioned).
  const skipped: (readonly Found[])[] = [];
  // An output read again gives the same found list (`foundAt` keeps it): looked through once.
  const lookedThrough = new Set<readonly Found[]>();
  let first: Chosen | undefined;
  let chosen: Chosen | undefined;
  let anyMentioned = false;
  const occurredBefore = (value: string) => taken.has(value) || skipped.some((l) => l.some((f) => f.value === value));
  // When no place holds a value the customer mentions, the first candidate is the choice;
  // and where the long past holds only values passed already, it is not looked through.
  const noneMentioned = !rules.some(([from, path]) => view.mentionedAt(from, path));
  const above = noneMentioned && rules.every(([from, path]) => view.spentBelow(from, path, tool, arg));

  eachPlace(bindings, tool, arg, view, rules, (output, path) => {
    if (first !== undefined && noneMentioned) return true;
    const list = foundAt(output, path);
    if (first !== undefined && !view.mentionsAny(list)) {
      skipped.push(list);
      return false;
    }
    if (lookedThrough.has(list)) return false;
    lookedThrough.add(list);
    for (const f of list) {
      const mentioned = view.mentioned(f);
      anyMentioned ||= mentioned;
      if ((mentioned ? occurredBefore(f.value) : taken.has(f.value)) || used.has(f.value)) continue;
      taken.add(f.value);
      const candidate = { value: f.value, mentioned, list };
      first ??= candidate;
      if (mentioned) {
        chosen = candidate;
        return true;
      }
    }
    return false;
  }, above);
  return { chosen: chosen ?? first, anyMentioned };
}
