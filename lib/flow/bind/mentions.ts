/**
 * The customer's mentions: what the customer said, as one lower-cased
 * text, and whether it names a value, or the record a value belongs to through one of its
 * siblings.
 */
import type { Found } from "./json-path.js";

/** Sibling values shorter than this (in characters) are not matched against the customer. */
export const MIN_MENTION = 4;

/** Whether `s` has at least `n` characters (code points, as `[...s]` counts them), counted without an array. */
function atLeastChars(s: string, n: number): boolean {
  // A code point takes one or two code units: the length alone decides most texts.
  if (s.length < n) return false;
  if (s.length >= 2 * n) return true;
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    if (++count >= n) return true;
  }
  return false;
}

/**
 * Whether the customer's (lower-cased) text mentions `value`, lower-cased and trimmed, with
 * or without its leading `#`s. An empty value (or only `#`) is never mentioned.
 */
export function mentions(customer: string, value: string): boolean {
  const v = value.toLowerCase().trim();
  // Most values have no leading `#`: then the bare value is the value itself.
  if (v.charCodeAt(0) !== 0x23) return v !== "" && customer.includes(v);
  const bare = v.replace(/^#+/, "");
  return bare !== "" && (customer.includes(v) || customer.includes(bare));
}

/** Whether the customer mentions a found value, or any sibling of at least MIN_MENTION chars. */
export function mentionedWithSiblings(customer: string, found: Found): boolean {
  if (mentions(customer, found.value)) return true;
  for (const s of found.siblings) if (atLeastChars(s, MIN_MENTION) && mentions(customer, s)) return true;
  return false;
}

/**
 * Whether a value could only have come from the customer: at least MIN_MENTION characters
 * with an ASCII digit (an id, a phone number).
 */
export function keyish(v: string): boolean {
  return atLeastChars(v, MIN_MENTION) && /[0-9]/.test(v);
}
