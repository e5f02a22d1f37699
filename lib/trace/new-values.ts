/**
 * The value-passing rule of turn inference (see turns.ts): a call that passes a
 * value first seen in what its turn returned could not have been written before that
 * result came back, so it belongs to a new LLM turn.
 */
import { charCount, isObject, type Json } from "./json.js";

/** Something that can say whether it holds a substring (a string or a TextStore). */
export interface Searchable {
  includes(v: string): boolean;
}

/**
 * Whether `args` pass a value of at least two characters that occurs in `returned` and not
 * in `known`. Values are every string and number at any depth, numbers as their JSON text.
 */
export function usesNewValues(
  args: Json,
  returned: Searchable,
  known: Searchable,
  /** A cheap sufficient test for "known holds it", tried before any text search. */
  surelyKnown: (v: string) => boolean = () => false,
): boolean {
  for (const v of scalars(args, [])) {
    if (charCount(v, 2) >= 2 && !surelyKnown(v) && returned.includes(v) && !known.includes(v)) return true;
  }
  return false;
}

/** Adds the strings and numbers in `value`, as text, to `into` (as `scalars` lists them, without the list). */
export function addScalars(value: Json, into: Set<string>): void {
  if (typeof value === "string") into.add(value);
  else if (typeof value === "number") into.add(JSON.stringify(value));
  else if (Array.isArray(value)) for (const v of value) addScalars(v, into);
  else if (isObject(value)) for (const k in value) if (Object.hasOwn(value, k)) addScalars(value[k]!, into);
}

/** The strings and numbers in `value`, as text. */
export function scalars(value: Json, out: string[]): string[] {
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number") out.push(JSON.stringify(value));
  else if (Array.isArray(value)) for (const v of value) scalars(v, out);
  else if (isObject(value)) for (const k of Object.keys(value)) scalars(value[k]!, out);
  return out;
}
