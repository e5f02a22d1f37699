import { isObject, type Json, type JsonObject } from "./json.js";
import { givenIdentifiers, ticketWords } from "./text.js";
import { parseResult, resultFeatures, scalarLeaves } from "./features.js";

/** A successful result, kept for binding symbols later. */
export interface Output {
  tool: string;
  value: Json;
}

/**
 * What a run knows of the ticket and the conversation so far, as the trees see it: the
 * ticket's words, the tools called and writes made, and each tool's latest result.
 */
export class RunState {
  /** The site whose tree decides next: `start`, a tool, or `TOOL!` after it failed. */
  site = "start";
  readonly words: string[];
  readonly given: Set<string>;
  readonly called = new Set<string>();
  /** Writes made, as the procedure wrote their actions. */
  readonly fixes = new Set<string>();
  /** Per tool, the features of its last result that counted. */
  readonly latest = new Map<string, string[]>();
  /** Successful results, oldest first. */
  readonly outputs: Output[] = [];
  /** Per tool, the last record that held an identifier the ticket gives. */
  readonly named = new Map<string, JsonObject>();

  constructor(
    readonly ticket: string,
    vocab: ReadonlySet<string>,
    private readonly symbolic: boolean,
  ) {
    this.words = [...new Set(ticketWords(ticket).filter((w) => vocab.has(w)))].map((w) => `ticket: ${w}`);
    this.given = givenIdentifiers(ticket);
  }

  /** The feature set the trees ask about. */
  features(): Set<string> {
    const out = new Set(this.words);
    for (const tool of this.called) out.add(`called ${tool}`);
    for (const action of this.fixes) out.add(`made ${action}`);
    for (const [tool, fs] of this.latest) for (const f of fs) out.add(`${tool}:${f}`);
    return out;
  }

  /** Whether a value holds an identifier the ticket gives: "the line with the customer's number". */
  names(value: Json): boolean {
    return scalarLeaves(value).some((leaf) => this.given.has(leaf));
  }

  /**
   * Takes in one call's result and moves to its site. Once a record naming the ticket was
   * read, a later record of the same kind that does not name it (the customer's other
   * line) leaves the features alone in a symbolic procedure, so the trees keep asking
   * about the ticket's own line.
   */
  takeIn(tool: string, content: string, failed: boolean): void {
    const value: Json = failed ? null : parseResult(content);
    if (!failed) this.outputs.push({ tool, value });
    this.site = failed ? `${tool}!` : tool;
    const named = this.named.get(tool);
    const sameKind = named !== undefined && ofAKind(named, value);
    if (this.symbolic && !failed && sameKind && !this.names(value)) return;
    this.latest.set(tool, resultFeatures(value, failed));
    if (isObject(value) && this.names(value)) this.named.set(tool, value);
    else if (!(sameKind && !failed)) this.named.delete(tool);
  }
}

/** Two records are of a kind when they have the same set of keys. */
function ofAKind(a: JsonObject, b: Json): boolean {
  if (!isObject(b) || a.size !== b.size) return false;
  for (const k of a.keys()) if (!b.has(k)) return false;
  return true;
}
