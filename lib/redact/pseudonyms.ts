/**
 * The second pass: which values are replaced, and by what. A value is kept when it is
 * empty or one character long, or when the tools declare it or at least `keepShared`
 * sessions share it, unless a named field holds it; otherwise it becomes `h_` and the first 12 hex digits of the
 * SHA-256 of the salt, a NUL and the normalized value. The same value gets the same hash
 * wherever it appears, in every session: that is what lets a flow be learned from the copy.
 */
import { createHash } from "node:crypto";
import { charCount, compareCodePoints, type Json } from "../trace/json.js";
import type { Census } from "./census.js";
import { core, coreBounds, lines, normalize, words } from "./text.js";
import type { Visitor } from "./visitor.js";

export interface Phrase {
  words: string[];
  hash: string;
}

export class Pseudonyms implements Visitor {
  /**
   * Hashed values of several words by their first word, longest first. Typed in running
   * text, such a phrase is replaced whole by its hash, so "the desk lamp" the customer
   * typed holds what became of "Desk Lamp" in a result.
   */
  private readonly phrases = new Map<string, Phrase[]>();
  /** Each hashed value's hash, made once: an id recurs in every call and result that carries it. */
  private readonly hashes = new Map<string, string>();

  constructor(
    private readonly census: Census,
    private readonly salt: string,
    private readonly keepShared: number,
  ) {
    for (const value of census.phrases) {
      const hash = this.of(value);
      if (hash === undefined) continue;
      const ws = words(value).map((w) => normalize(core(w))).filter((w) => w !== "");
      if (ws.length < 2) continue;
      const list = this.phrases.get(ws[0]!) ?? [];
      list.push({ words: ws, hash });
      this.phrases.set(ws[0]!, list);
    }
    for (const list of this.phrases.values()) list.sort(longestFirst);
  }

  /**
   * The hash that replaces `v`, or undefined to keep it. A value of one character is always
   * kept, even in a named field: it says next to nothing about anyone, and turn inference
   * reads only values of two or more characters, so a one-character value hashed into
   * fourteen could move a call into another turn and change what is learned.
   */
  of(v: string): string | undefined {
    const key = normalize(v);
    if (charCount(key, 2) < 2) return undefined;
    const keep = this.census.declared.has(key) || this.census.sessions(key) >= this.keepShared;
    if (keep && !this.census.forced.has(key)) return undefined;
    let hash = this.hashes.get(key);
    if (hash === undefined) {
      hash = `h_${createHash("sha256").update(`${this.salt}\0${key}`, "utf8").digest("hex").slice(0, 12)}`;
      this.hashes.set(key, hash);
    }
    return hash;
  }

  value(v: string): string | undefined {
    return this.of(v);
  }

  /** Running text, line by line: hashed phrases replaced whole, other words one by one, punctuation kept. */
  words(text: string): string {
    return lines(text)
      .map((line) => {
        const ws = words(line);
        const cores = ws.map((w) => normalize(core(w)));
        const out: string[] = [];
        for (let i = 0; i < ws.length; ) {
          const phrase = this.phraseAt(cores, i);
          if (phrase !== undefined) {
            const first = ws[i]!;
            const last = ws[i + phrase.words.length - 1]!;
            out.push(first.slice(0, coreBounds(first)[0]) + phrase.hash + last.slice(coreBounds(last)[1]));
            i += phrase.words.length;
            continue;
          }
          const word = ws[i++]!;
          const [start, end] = coreBounds(word);
          const hash = start === end ? undefined : this.of(word.slice(start, end));
          out.push(hash === undefined ? word : word.slice(0, start) + hash + word.slice(end));
        }
        return out.join(" ");
      })
      .join("\n");
  }

  document(_doc: Json): void {}

  listing(_result: Json): void {}

  private phraseAt(cores: readonly string[], i: number): Phrase | undefined {
    const list = this.phrases.get(cores[i]!);
    return list?.find((p) => p.words.length <= cores.length - i && p.words.every((w, k) => w === cores[i + k]));
  }
}

function longestFirst(a: Phrase, b: Phrase): number {
  if (a.words.length !== b.words.length) return b.words.length - a.words.length;
  for (let k = 0; k < a.words.length; k++) {
    const c = compareCodePoints(a.words[k]!, b.words[k]!);
    if (c !== 0) return c;
  }
  return compareCodePoints(a.hash, b.hash);
}
