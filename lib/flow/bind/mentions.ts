/**
 * The customer's mentions: what the customer said, as one lower-cased
 * text, and whether it names a value, or the record a value belongs to through one of its
 * siblings.
 */
import type { Found } from "./json-path.js";

/** Sibling values shorter than this (in characters) are not matched against the customer. */
export const MIN_MENTION = 4;

function chars(s: string): number {
  return [...s].length;
}

/**
 * Whether the customer's (lower-cased) text mentions `value`, lower-cased and trimmed, with
 * or without its leading `#`s. An empty value (or only `#`) is never mentioned.
 */
export function mentions(customer: string, value: string): boolean {
  const v = value.toLowerCase().trim();
  const bare = v.replace(/^#+/, "");
  return bare !== "" && (customer.includes(v) || customer.includes(bare));
}

/** Whether the customer mentions a found value, or any sibling of at least MIN_MENTION chars. */
export function mentionedWithSiblings(customer: string, found: Found): boolean {
  return mentions(customer, found.value) || found.siblings.some((s) => chars(s) >= MIN_MENTION && mentions(customer, s));
}

/**
 * Whether a value could only have come from the customer: at least MIN_MENTION characters
 * with an ASCII digit (an id, a phone number).
 */
export function keyish(v: string): boolean {
  return chars(v) >= MIN_MENTION && /[0-9]/.test(v);
}
