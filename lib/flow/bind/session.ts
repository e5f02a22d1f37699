/**
 * What a binding reads from the session episode (what `pick` reads):
 * the customer's text, each successful output parsed, every call made (the episode's and the
 * calls in flight), and the values the customer gave the agent by another way than the
 * conversation.
 *
 * A `SessionReading` takes events one at a time; a view may stack one reading on another,
 * so the live session reads the closed part of the session once (`LiveDecisions`) and
 * only the turn being decided afresh.
 */
import type { Json } from "../../trace/json.js";
import type { Episode, EpisodeEvent, ToolCall } from "../../trace/episode-types.js";
import { isObject } from "../../trace/json.js";
import { atPath, lowerScalars, parseOutput, valueText, type Found } from "./json-path.js";
import { keyish, mentionedWithSiblings, mentions } from "./mentions.js";
import { keepNewest } from "../../util/keep-newest.js";
import { listIn, mapIn } from "../../util/memo.js";

/** One successful tool output, parsed. */
export interface Output {
  tool: string;
  callId: string;
  value: Json;
  /** Its scalars, lower-cased (what it showed the agent). */
  scalars: Set<string>;
  /** Its place among the view's outputs (0 the oldest). */
  seq: number;
  /** What `atPath` found at each path, when the output is kept across decisions. */
  walks?: Map<string, readonly Found[]>;
}

/** What `path` holds in `out` (`atPath`), each path walked once for an output the session keeps. */
export function foundAt(out: Output, path: string): readonly Found[] {
  if (out.walks === undefined) return atPath(out.value, path);
  let found = out.walks.get(path);
  if (found === undefined) out.walks.set(path, (found = atPath(out.value, path)));
  return found;
}

/** An output's content parsed, and what was found in it (kept when the parse is). */
export interface ParsedOutput {
  value: Json;
  scalars: Set<string>;
  walks?: Map<string, readonly Found[]>;
}

/** Parses an output's content: the live views keep one per distinct text, so a session parses each once. */
export type ParseOutput = (content: string) => ParsedOutput;

const parseFresh: ParseOutput = (content) => {
  const value = parseOutput(content);
  return { value, scalars: lowerScalars(value) };
};

/** The session read event by event, on top of an earlier reading of the events before. */
export class SessionReading {
  customer = "";
  readonly outputs: Output[] = [];
  /** `outputs` by tool, in the same order. */
  outputsBy: Map<string, Output[]> | undefined = undefined;
  /** The tools called (or in flight). */
  calledTools: Set<string> | undefined = undefined;
  /** By tool, argument and value text, the calls that passed it, in order. */
  passed: Map<string, Map<string, Map<string, ToolCall[]>>> | undefined = undefined;
  given: Set<string> | undefined = undefined;
  outputOf: Map<string, Output> | undefined = undefined;
  private seenHere: Set<string> | undefined = undefined;
  /** Outputs read here, those a compaction let go included: an output's place (`seq`) never moves. */
  private outputsRead = 0;
  /**
   * The calls read here whose result failed, kept only by a reading that is compacted
   * (compact-reading.ts), until it is: a failed call never returns anything.
   */
  failedCalls: Set<string> | undefined = undefined;
  // The sets and maps above are made on their first entry: a reading is made for every pick the learner
  // scores and every decision served, and most hold a call or two.
  /** Mentions already matched, kept by the views over this reading (see `SessionView.mentioned`). */
  mentions: MentionMemo | undefined;
  /**
   * The values kept by `unpassed`, by their key, by the tool whose outputs show them, and by
   * the tool they would be passed to. Made on the first ask: only the bottom reading is
   * asked, and a reading of one decision's turn is made after every call.
   */
  private unpassedIndex: { at: Map<string, Map<string, Map<string, Map<string, Unpassed>>>>; from: Map<string, Unpassed[]>; to: Map<string, Unpassed[]> } | undefined;

  /** `compacted`: the reading will be compacted (compact-reading.ts), so it notes failed calls. */
  constructor(
    readonly base: SessionReading | undefined = undefined,
    private readonly parse: ParseOutput = parseFresh,
    private readonly compacted = false,
  ) {
    // Keeps the instances' V8 map across full collections (see keep-newest.ts).
    keepNewest(this);
  }

  /** The customer's text below and here, last made (see `customerThrough`). */
  private through: { below: string; here: string; all: string } | undefined;

  /**
   * The customer's text of the readings below and of this one: the same string while neither
   * changes, so that the mentions kept for it (`SessionView.mentioned`) are found by a
   * comparison of references, not of two copies of a long text.
   */
  customerThrough(): string {
    const below = this.base?.customerThrough() ?? "";
    const t = this.through;
    if (t !== undefined && t.below === below && t.here === this.customer) return t.all;
    const all = below + this.customer;
    this.through = { below, here: this.customer, all };
    return all;
  }

  /** Outputs read so far, here and below. */
  outputCount(): number {
    return this.outputsRead + (this.base?.outputCount() ?? 0);
  }

  /** Whether an output read so far (here or below) showed `v`. */
  seen(v: string): boolean {
    return this.seenHere?.has(v) === true || (this.base?.seen(v) ?? false);
  }

  read(e: EpisodeEvent): void {
    if (e.kind === "user") {
      this.customer += e.text.toLowerCase() + "\n";
    } else if (e.kind === "tool_result") {
      if (e.error) {
        if (this.compacted) (this.failedCalls ??= new Set<string>()).add(e.call_id);
        return;
      }
      const { value, scalars, walks } = this.parse(e.content);
      if (scalars.size > 0) {
        const seen = (this.seenHere ??= new Set<string>());
        for (const v of scalars) seen.add(v);
      }
      // Every output of one shape (`walks` undefined when not kept), for the code that reads them.
      const out: Output = { tool: e.name, callId: e.call_id, value, scalars, seq: this.outputCount(), walks };
      // A call answered twice: the later output is the one it returned.
      (this.outputOf ??= new Map<string, Output>()).set(e.call_id, out);
      this.outputs.push(out);
      this.outputsRead++;
      const same = this.outputsBy?.get(e.name);
      if (same === undefined) (this.outputsBy ??= new Map<string, Output[]>()).set(e.name, [out]);
      else same.push(out);
      const waiting = this.unpassedIndex?.from.get(e.name);
      if (waiting !== undefined) for (const u of waiting) this.note(u, out);
    } else {
      for (const c of e.calls) {
        for (const v of lowerScalars(c.arguments)) if (keyish(v) && !this.seen(v)) (this.given ??= new Set<string>()).add(v);
        this.madeBy(c);
      }
    }
  }

  /** Calls in flight: made, but never counted as giving a value. */
  inFlight(calls: readonly ToolCall[]): void {
    for (const c of calls) this.madeBy(c);
  }

  /**
   * The values this reading's outputs of `from` show at `path` that no call read here passed
   * to `tool` as `arg`. Kept as events are read from the first ask on, so a binding learns
   * in one lookup that a long past has nothing left to pass.
   */
  unpassed(from: string, path: string, tool: string, arg: string): ReadonlySet<string> {
    const index = (this.unpassedIndex ??= { at: new Map<string, Map<string, Map<string, Map<string, Unpassed>>>>(), from: new Map<string, Unpassed[]>(), to: new Map<string, Unpassed[]>() });
    // Keyed level by level: asked at every pick, a joined text key would be made each time.
    const byArg = mapIn(mapIn(mapIn(index.at, from), path), tool);
    let u = byArg.get(arg);
    if (u === undefined) {
      u = { path, tool, arg, values: new Set() };
      byArg.set(arg, u);
      listIn(index.from, from).push(u);
      listIn(index.to, tool).push(u);
      const outs = this.outputsBy?.get(from);
      if (outs !== undefined) for (const out of outs) this.note(u, out);
    }
    return u.values;
  }

  private note(u: Unpassed, out: Output): void {
    const passed = this.passed?.get(u.tool)?.get(u.arg);
    for (const f of foundAt(out, u.path)) if (passed?.has(f.value) !== true) u.values.add(f.value);
  }

  private madeBy(c: ToolCall): void {
    (this.calledTools ??= new Set<string>()).add(c.name);
    if (!isObject(c.arguments)) return;
    const waiting = this.unpassedIndex?.to.get(c.name);
    if (waiting !== undefined) for (const u of waiting) if (Object.hasOwn(c.arguments, u.arg)) u.values.delete(valueText(c.arguments[u.arg]!));
    const passed = (this.passed ??= new Map<string, Map<string, Map<string, ToolCall[]>>>());
    let byArg = passed.get(c.name);
    if (byArg === undefined) passed.set(c.name, (byArg = new Map<string, Map<string, ToolCall[]>>()));
    for (const k of Object.keys(c.arguments)) {
      let byText = byArg.get(k);
      if (byText === undefined) byArg.set(k, (byText = new Map<string, ToolCall[]>()));
      const text = valueText(c.arguments[k]!);
      const calls = byText.get(text);
      if (calls === undefined) byText.set(text, [c]);
      else calls.push(c);
    }
  }
}

export class SessionView {
  /** Every User text, lower-cased, each followed by `\n`. */
  readonly customer: string;
  private readonly layers: SessionReading[];
  private all: readonly Output[] | undefined;

  /** The view of `episode` with `inFlight`; or of `reading`, already read, when given. */
  constructor(episode: Episode, inFlight?: readonly ToolCall[]);
  constructor(reading: SessionReading);
  constructor(from: Episode | SessionReading, inFlight: readonly ToolCall[] = []) {
    let top: SessionReading;
    if (from instanceof SessionReading) top = from;
    else {
      top = new SessionReading();
      for (const e of from.events) top.read(e);
      top.inFlight(inFlight);
    }
    const layers: SessionReading[] = [];
    for (let r: SessionReading | undefined = top; r !== undefined; r = r.base) layers.push(r);
    layers.reverse();
    this.layers = layers;
    this.customer = top.customerThrough();
    // Keeps the instances' V8 map across full collections (see keep-newest.ts).
    keepNewest(this);
  }

  /** Successful outputs, oldest first. */
  get outputs(): readonly Output[] {
    return (this.all ??= this.layers.length === 1 ? this.layers[0]!.outputs : ([] as Output[]).concat(...this.layers.map((r) => r.outputs)));
  }

  /**
   * Whether the bottom reading's outputs of `from` can give `tool`'s `arg` nothing from
   * `path`: every value found there was passed already (here or above), and the customer mentions none
   * anywhere. A binding then looks only at the readings above it.
   */
  spentBelow(from: string, path: string, tool: string, arg: string): boolean {
    const left = this.layers[0]!.unpassed(from, path, tool, arg);
    if (left.size > 0) {
      const used = this.used(tool, arg);
      for (const v of left) if (!used.has(v)) return false;
    }
    return !this.mentionedAt(from, path);
  }

  /** How many readings the view stacks (0 the bottom one). */
  get layerCount(): number {
    return this.layers.length;
  }

  /** The outputs of `tool` in reading `layer` (0 the bottom one), oldest first. */
  outputsIn(layer: number, tool: string): readonly Output[] | undefined {
    return this.layers[layer]?.outputsBy?.get(tool);
  }

  /** Each output of any of `tools`, newest first (above the bottom reading with `above`), until `visit` says stop (returns true). */
  eachOutputOfAny(tools: readonly string[], visit: (out: Output) => boolean | void, above = false): void {
    // A merge of each tool's outputs, newest first: each list is already in order.
    const lists: Output[][] = [];
    for (let l = above ? 1 : 0; l < this.layers.length; l++) for (const t of tools) {
      const r = this.layers[l]!;
      const outs = r.outputsBy?.get(t);
      if (outs !== undefined && outs.length > 0) lists.push(outs);
    }
    const next = lists.map((l) => l.length - 1);
    for (;;) {
      let best = -1;
      for (let i = 0; i < lists.length; i++) if (next[i]! >= 0 && (best < 0 || lists[i]![next[i]!]!.seq > lists[best]![next[best]!]!.seq)) best = i;
      if (best < 0) return;
      const out = lists[best]![next[best]!]!;
      next[best]! -= 1;
      if (visit(out) === true) return;
    }
  }

  /** Each output of `tool`, newest first (above the bottom reading with `above`), until `visit` says stop (returns true). */
  eachOutputOf(tool: string, visit: (out: Output) => boolean | void, above = false): void {
    for (let l = this.layers.length - 1; l >= (above ? 1 : 0); l--) {
      const outs = this.layers[l]!.outputsBy?.get(tool);
      if (outs !== undefined) for (let i = outs.length - 1; i >= 0; i--) if (visit(outs[i]!) === true) return;
    }
  }

  /**
   * Whether the customer mentions a found value or its record (`mentionedWithSiblings`).
   * Found values are kept with their parsed outputs, and the customer's text seldom changes
   * between decisions, so each is matched once while the text stays the same.
   */
  mentioned(found: Found): boolean {
    const memo = this.mentionMemo();
    let m = memo.found.get(found);
    if (m === undefined) memo.found.set(found, (m = mentionedWithSiblings(this.customer, found)));
    return m;
  }

  /** Whether the customer mentions any value of a found list (kept like `mentioned`). */
  mentionsAny(list: readonly Found[]): boolean {
    const memo = this.mentionMemo();
    let m = memo.lists.get(list);
    if (m === undefined) memo.lists.set(list, (m = list.some((f) => this.mentioned(f))));
    return m;
  }

  /**
   * Whether the customer mentions a value found at `path` in any output of `tool`. The
   * bottom reading's outputs are looked through once for each customer text (kept with the
   * mentions), so a binding learns in one lookup that the long past holds no mention and
   * its first candidate stands.
   */
  mentionedAt(tool: string, path: string): boolean {
    if (this.customer === "") return false;
    const memo = this.mentionMemo();
    let byPath = memo.places.get(tool);
    if (byPath === undefined) memo.places.set(tool, (byPath = new Map<string, { checked: number; any: boolean }>()));
    let at = byPath.get(path);
    if (at === undefined) byPath.set(path, (at = { checked: 0, any: false }));
    const root = this.layers[0]!.outputsBy?.get(tool);
    if (root !== undefined) for (; !at.any && at.checked < root.length; at.checked++) at.any = this.mentionsAny(foundAt(root[at.checked]!, path));
    if (at.any) return true;
    for (let l = 1; l < this.layers.length; l++) {
      const outs = this.layers[l]!.outputsBy?.get(tool);
      if (outs !== undefined) for (const out of outs) if (this.mentionsAny(foundAt(out, path))) return true;
    }
    return false;
  }

  /** The memo of the bottom reading, which lives as long as the session does. */
  private mentionMemo(): MentionMemo {
    const root = this.layers[0]!;
    if (root.mentions?.customer !== this.customer) root.mentions = { customer: this.customer, found: new Map(), lists: new Map(), places: new Map() };
    return root.mentions;
  }

  /** The tool of the most recent output: the site a binding orders its sources at. */
  get site(): string | undefined {
    for (let l = this.layers.length - 1; l >= 0; l--) {
      const last = this.layers[l]!.outputs.at(-1);
      if (last !== undefined) return last.tool;
    }
    return undefined;
  }

  /** Whether `tool` was called (or is in flight). */
  called(tool: string): boolean {
    for (const r of this.layers) if (r.calledTools?.has(tool) === true) return true;
    return false;
  }

  /** The value texts passed as `arg` in the calls made to `tool` (calls in flight too). */
  used(tool: string, arg: string): UsedValues {
    // Asked for every argument of every pick: a list is made only when two readings passed values.
    let one: UsedValues | undefined;
    let maps: UsedValues[] | undefined;
    for (const r of this.layers) {
      const texts = r.passed?.get(tool)?.get(arg);
      if (texts === undefined) continue;
      if (one === undefined) one = texts;
      else (maps ??= [one]).push(texts);
    }
    if (maps !== undefined) {
      const all = maps;
      return { has: (text) => all.some((m) => m.has(text)) };
    }
    return one ?? NONE_USED;
  }

  /** A value the customer gave: keyish, and passed before any result held it, or mentioned. */
  gave(v: string): boolean {
    if (!keyish(v)) return false;
    // Asked for every value a record read lacks (describedRead): no closure per ask.
    for (const r of this.layers) if (r.given?.has(v) === true) return true;
    return mentions(this.customer, v);
  }

  /**
   * What the call to `tool` with `value` as `arg` returned, as its lower-cased scalars, if
   * it returned successfully.
   */
  returned(tool: string, arg: string, value: string): ReadonlySet<string> | undefined {
    for (const r of this.layers) {
      const calls = r.passed?.get(tool)?.get(arg)?.get(value);
      if (calls === undefined) continue;
      for (const c of calls) {
        const out = this.outputOf(c.id);
        // The output's own set (shared: read, never changed).
        if (out !== undefined) return out.scalars;
      }
    }
    return undefined;
  }

  private outputOf(callId: string): Output | undefined {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const out = this.layers[i]!.outputOf?.get(callId);
      if (out !== undefined) return out;
    }
    return undefined;
  }
}

/** Values found at `path` not yet passed to `tool` as `arg` (`SessionReading.unpassed`). */
interface Unpassed {
  path: string;
  tool: string;
  arg: string;
  values: Set<string>;
}

/** The value texts passed as one argument of a tool. */
export interface UsedValues {
  has(text: string): boolean;
}

/** No value passed. */
const NONE_USED: UsedValues = new Set<string>();

/** Mentions matched against one customer text (the last one asked about). */
export interface MentionMemo {
  customer: string;
  found: Map<Found, boolean>;
  lists: Map<readonly Found[], boolean>;
  /** By tool, then path, how many of the bottom reading's outputs were looked through, and whether one was mentioned. */
  places: Map<string, Map<string, { checked: number; any: boolean }>>;
}
