/**
 * The word list of the `*.confirmed` rules: does the customer's last
 * message (already lowercased) say yes? A single word must be a whole word of the message
 * (`yesterday` is not `yes`, `confirmed.` is not `confirm`); a phrase must appear in the
 * message's words joined by single spaces (a plain substring test).
 */
import { fail, pass, type Verdict } from "./verdict.js";

export const CONFIRMING: readonly string[] = [
  "yes",
  "yeah",
  "yep",
  "yup",
  "confirm",
  "go ahead",
  "proceed",
  "please do",
  "do it",
  "sure",
  "okay",
  "ok",
  "correct",
  "that's right",
  "sounds good",
  "absolutely",
  "please cancel",
  "please process",
  "please go",
  "let's do",
  "i agree",
  "fine",
];

export const NOTHING_SAID = "the customer has not confirmed anything yet";
export const NOT_CONFIRMED = "the customer's last message is not an explicit confirmation";

const SINGLE = new Set(CONFIRMING.filter((c) => !c.includes(" ")));
const PHRASES = CONFIRMING.filter((c) => c.includes(" "));
/** Anything neither alphanumeric (Rust's `char::is_alphanumeric`) nor an apostrophe. */
const SEPARATOR = /[^\p{Alphabetic}\p{N}']+/u;

/** The message's words, as the word list splits it. */
export function wordsOf(said: string): string[] {
  return said.split(SEPARATOR).filter((w) => w !== "");
}

/** The verdict on the last thing the customer said (undefined when they said nothing). */
export function confirmation(lastSaid: string | undefined): Verdict {
  if (lastSaid === undefined) return fail(NOTHING_SAID);
  const words = wordsOf(lastSaid);
  if (words.some((w) => SINGLE.has(w))) return pass();
  const joined = words.join(" ");
  return PHRASES.some((p) => joined.includes(p)) ? pass() : fail(NOT_CONFIRMED);
}
