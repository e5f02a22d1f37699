import assert from "node:assert/strict";
import { CONFIRMING, confirmation, wordsOf } from "../../lib/guards/index.js";

const NOT = { verdict: "fail", reason: "the customer's last message is not an explicit confirmation" };

describe("guards: the word list of the *.confirmed rules", () => {
  it("holds exactly its 22 entries, in order", () => {
    assert.deepEqual(CONFIRMING, [
      "yes", "yeah", "yep", "yup", "confirm", "go ahead", "proceed", "please do", "do it", "sure", "okay", "ok",
      "correct", "that's right", "sounds good", "absolutely", "please cancel", "please process", "please go",
      "let's do", "i agree", "fine",
    ]);
  });

  it("fails when the customer said nothing at all", () => {
    assert.deepEqual(confirmation(undefined), { verdict: "fail", reason: "the customer has not confirmed anything yet" });
  });

  const passes: Array<[string, string]> = [
    ["a bare yes", "yes"],
    ["yes with punctuation", "yes, please cancel it."],
    ["a single word inside a sentence", "that is correct, thanks"],
    ["ok after a comma", "hmm,ok"],
    ["a phrase", "please go ahead with that"],
    ["a phrase split by punctuation", "go... ahead!"],
    ["an apostrophe phrase", "that's right"],
    ["let's do it", "let's do it"],
    ["a phrase as a plain substring of the joined words", "please doing it now"],
    ["i agree", "well i agree"],
    ["a word among non-Latin letters", "да yes да"],
    ["tabs and newlines between words", "sounds\n\tgood"],
  ];
  for (const [what, said] of passes) {
    it(`passes ${what}: ${JSON.stringify(said)}`, () => assert.deepEqual(confirmation(said), { verdict: "pass" }));
  }

  const failures: Array<[string, string]> = [
    ["a word that only starts with yes", "yesterday i ordered it"],
    ["confirmed (not the word confirm)", "confirmed."],
    ["a question", "what is the refund method?"],
    ["okay glued to a letter", "okayish"],
    ["an apostrophe making another word", "yes'm"],
    ["an empty message", ""],
    ["only punctuation", "?!"],
    ["yes inside a longer alphanumeric word", "yes2"],
  ];
  for (const [what, said] of failures) {
    it(`fails ${what}: ${JSON.stringify(said)}`, () => assert.deepEqual(confirmation(said), NOT));
  }

  it("splits on everything but letters, digits and apostrophes (Unicode)", () => {
    assert.deepEqual(wordsOf("Don't—stop, ñandú 42 ½!"), ["Don't", "stop", "ñandú", "42", "½"]);
    assert.deepEqual(wordsOf("  "), []);
  });
});
