/**
 * The first pass: how many sessions each value appears in, the names the tools declare
 * (kept however rare), the values of the named fields (hashed however common), and the
 * values of several words (matched whole in running text once they are hashed).
 */
import { isObject, type Json } from "../trace/json.js";
import { core, isPhrase, normalize, words } from "./text.js";
import type { Visitor } from "./visitor.js";

export class Census implements Visitor {
  /** By normalized value: in how many sessions it was seen, and the last one (by number). */
  private readonly seen = new Map<string, { sessions: number; last: number }>();
  readonly declared = new Set<string>();
  readonly forced = new Set<string>();
  /** Normalized values of two or more words, from arguments and results. */
  readonly phrases = new Set<string>();
  /** The session values are being counted for, by number; and each session's number. */
  private session = -1;
  private readonly numbers = new Map<string, number>();
  private readonly fields: ReadonlySet<string>;

  constructor(hashFields: readonly string[]) {
    this.fields = new Set(hashFields.map(normalize));
  }

  /** Values seen from now on are the session `id`'s (two logs of one session count once). */
  enterSession(id: string): void {
    let n = this.numbers.get(id);
    if (n === undefined) this.numbers.set(id, (n = this.numbers.size));
    this.session = n;
  }

  /** In how many sessions the normalized value `key` was seen. */
  sessions(key: string): number {
    return this.seen.get(key)?.sessions ?? 0;
  }

  value(v: string): undefined {
    this.add(v);
    if (isPhrase(v)) this.phrases.add(normalize(v));
    return undefined;
  }

  words(text: string): string {
    for (const w of words(text)) {
      const c = core(w);
      if (c !== "") this.add(c);
    }
    return text;
  }

  document(doc: Json): void {
    this.named(doc);
  }

  listing(result: Json): void {
    const tools = isObject(result) ? result["tools"] : undefined;
    if (!Array.isArray(tools)) return;
    for (const tool of tools) {
      if (!isObject(tool)) continue;
      const name = tool["name"];
      if (typeof name === "string") this.declared.add(normalize(name));
      for (const key of ["inputSchema", "outputSchema"]) {
        const schema = tool[key];
        if (schema !== undefined) this.schemaNames(schema);
      }
    }
  }

  private add(value: string): void {
    const key = normalize(value);
    if (key === "") return;
    const entry = this.seen.get(key);
    if (entry === undefined) this.seen.set(key, { sessions: 1, last: this.session });
    else if (entry.last !== this.session) {
      entry.sessions++;
      entry.last = this.session;
    }
  }

  /** Property names and string enum values anywhere in a schema. */
  private schemaNames(v: Json): void {
    if (Array.isArray(v)) {
      for (const item of v) this.schemaNames(item);
      return;
    }
    if (!isObject(v)) return;
    const properties = v["properties"];
    if (isObject(properties)) for (const k of Object.keys(properties)) this.declared.add(normalize(k));
    const values = v["enum"];
    if (Array.isArray(values)) for (const e of values) if (typeof e === "string") this.declared.add(normalize(e));
    for (const child of Object.values(v)) this.schemaNames(child);
  }

  /** Every scalar under a named key, at any depth; the keys under it are field names, left alone. */
  private named(v: Json): void {
    if (Array.isArray(v)) {
      for (const item of v) this.named(item);
      return;
    }
    if (!isObject(v)) return;
    for (const [k, child] of Object.entries(v)) {
      if (this.fields.has(normalize(k))) this.force(child);
      else this.named(child);
    }
  }

  private force(v: Json): void {
    if (typeof v === "string" || typeof v === "number") {
      const s = String(v);
      this.forced.add(normalize(s));
      for (const w of words(s)) this.forced.add(normalize(core(w)));
    } else if (Array.isArray(v)) for (const item of v) this.force(item);
    else if (isObject(v)) for (const child of Object.values(v)) this.force(child);
  }
}
