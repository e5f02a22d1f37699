/**
 * What a binding reads from the session episode (facts-flows §2.6, "What `pick` reads"):
 * the customer's text, each successful output parsed, every call made (the episode's and the
 * calls in flight), and the values the customer gave the agent by another way than the
 * conversation.
 */
import type { Json } from "../../../trace/json.js";
import type { Episode, ToolCall } from "../../../trace/episode-types.js";
import { isObject } from "../../../trace/json.js";
import { lowerScalars, parseOutput, valueText } from "./json-path.js";
import { keyish, mentions } from "./mentions.js";

/** One successful tool output, parsed. */
export interface Output {
  tool: string;
  callId: string;
  value: Json;
}

export class SessionView {
  /** Every User text, lower-cased, each followed by `\n`. */
  readonly customer: string;
  /** Successful outputs, oldest first. */
  readonly outputs: Output[];
  /** Every call of the episode, then the calls in flight. */
  readonly made: ToolCall[];
  /** Keyish values (trimmed, lower-cased) the agent passed before any result held them. */
  readonly given: Set<string>;
  private readonly outputOf = new Map<string, number>();

  constructor(episode: Episode, inFlight: readonly ToolCall[] = []) {
    let customer = "";
    const outputs: Output[] = [];
    const made: ToolCall[] = [];
    const seen = new Set<string>();
    const given = new Set<string>();
    for (const e of episode.events) {
      if (e.kind === "user") {
        customer += e.text.toLowerCase() + "\n";
      } else if (e.kind === "tool_result") {
        if (e.error) continue;
        const value = parseOutput(e.content);
        lowerScalars(value, seen);
        this.outputOf.set(e.call_id, outputs.length);
        outputs.push({ tool: e.name, callId: e.call_id, value });
      } else {
        for (const c of e.calls) {
          for (const v of lowerScalars(c.arguments)) if (keyish(v) && !seen.has(v)) given.add(v);
        }
        made.push(...e.calls);
      }
    }
    made.push(...inFlight);
    this.customer = customer;
    this.outputs = outputs;
    this.made = made;
    this.given = given;
  }

  /** The tool of the most recent output: the site a binding orders its sources at. */
  get site(): string | undefined {
    return this.outputs.at(-1)?.tool;
  }

  /** Whether `tool` was called (or is in flight). */
  called(tool: string): boolean {
    return this.made.some((c) => c.name === tool);
  }

  /** `(arg, value text)` over the calls made to `tool`, as `arg\u0000text` keys. */
  used(tool: string): Set<string> {
    const out = new Set<string>();
    for (const c of this.made) {
      if (c.name !== tool || !isObject(c.arguments)) continue;
      for (const k of Object.keys(c.arguments)) out.add(usedKey(k, valueText(c.arguments[k]!)));
    }
    return out;
  }

  /** A value the customer gave: keyish, and passed before any result held it, or mentioned. */
  gave(v: string): boolean {
    return keyish(v) && (this.given.has(v) || mentions(this.customer, v));
  }

  /**
   * What the call to `tool` with `value` as `arg` returned, as its lower-cased scalars, if
   * it returned successfully.
   */
  returned(tool: string, arg: string, value: string): Set<string> | undefined {
    for (const c of this.made) {
      if (c.name !== tool || !isObject(c.arguments)) continue;
      const a = c.arguments[arg];
      if (a === undefined || valueText(a) !== value) continue;
      const i = this.outputOf.get(c.id);
      if (i !== undefined) return lowerScalars(this.outputs[i]!.value);
    }
    return undefined;
  }
}

export function usedKey(arg: string, text: string): string {
  return `${arg}\u0000${text}`;
}
