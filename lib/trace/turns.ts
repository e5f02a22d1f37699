/**
 * Building an episode's events from a log's messages, one at a time, with LLM turns
 * inferred as docs/trace.md ("Turns are inferred") describes.
 *
 * A tool call joins the current turn while a call of that turn still awaits its response
 * (parallel calls, whoever sent it). Otherwise it starts a new turn, unless the client sent
 * it within {@link SAME_TURN_MS} of the turn's last response, with nothing said since and no
 * value in its arguments that first appeared in what the turn returned. The proxy's own
 * calls (`stretto-…` ids) never continue a turn that way: a flow decides each after the last
 * one's result. A cancelled call stops holding its turn; a reused id replaces its call.
 */
import { field, isObject, jsonText, mayHoldText, own, type Json, type JsonObject } from "./json.js";
import type { AssistantEvent, Episode, EpisodeEvent } from "./episode-types.js";
import type { LogEntry, LogHeader, Peer } from "./log-types.js";
import { IdMap } from "./id-map.js";
import { callId, method, requestId, responseId } from "./messages.js";
import { addScalars, usesNewValues } from "./new-values.js";
import { outcome, readResult } from "./outcome.js";
import { LazyToolResult } from "./lazy-result.js";
import { TextStore } from "./text-store.js";

/** How soon after its turn's last response a call may still be that LLM turn's, in ms. */
export const SAME_TURN_MS = 500;

/** Where a 2026-07-28 request names its client, there being no `initialize`. */
export const CLIENT_INFO_META = "io.modelcontextprotocol/clientInfo";

/** The requests an episode reads. */
const EPISODE_METHODS = ["tools/call", "initialize", "notifications/cancelled"];

interface Pending {
  callId: string;
  name: string;
  /** Whether it keeps its turn open; false once cancelled or replaced. */
  holdsTurn: boolean;
}

/** How many distinct passed values a builder with limited text keeps as its exact shortcut. */
export const PASSED_VALUES_KEPT = 1 << 14;

export interface EpisodeBuilderOptions {
  /** Record {@link EpisodeBuilder.sentAfter} (off by default: it holds an entry per call). */
  sentAfter?: boolean;
  /**
   * The most text (in characters, the latest) turn inference keeps of what the session
   * returned and passed before (`TextStore`'s limit); all of it by default. A live session
   * that keeps no history sets it, so its memory stays bounded (docs/session-memory.md).
   */
  textChars?: number;
  /**
   * Whether calls are grouped into LLM turns by the time and value-passing rules (the
   * default). Without, a call joins the turn of the calls still in flight, else starts one,
   * and no text is kept to search: for a live session that keeps no history, whose turns no
   * one sees (its followers are handed calls one by one; docs/session-memory.md).
   */
  turns?: boolean;
  /**
   * Whether each text turn inference keeps (a result's, a call's arguments written out) is
   * kept once however often the session shows it: for a live session that keeps no history
   * but whose turns a follower sees, so its text costs a reference per result and per call
   * beyond the distinct texts (docs/session-memory.md).
   */
  sharedTexts?: boolean;
}

export class EpisodeBuilder {
  readonly events: EpisodeEvent[] = [];
  /**
   * Whether tool results are made as {@link LazyToolResult}s (their text made when first
   * read) while no turns are inferred: for a live session whose every follower reads each
   * event as it is handed and keeps none (`SessionLog` sets it).
   */
  lazyResults = false;
  /** For each call id, how many of its turn's calls had been answered when it was sent. */
  readonly sentAfter = new Map<string, number>();
  private readonly recordSentAfter: boolean;
  private inferTurns: boolean;
  private readonly pending = new IdMap<Pending>();
  /** The current turn's event, and how many of its calls still hold it open. */
  private turn: AssistantEvent | undefined;
  private open = 0;
  /** Whether anything but a tool result has been added since the current turn began. */
  private saidSinceTurn = false;
  /** When the current turn's last holding call was answered. */
  private answeredMs: number | undefined;
  private answered = 0;
  /** What the current turn returned, and everything the session held before it. */
  private readonly returned: TextStore;
  private readonly known: TextStore;
  /**
   * Every value a call passed, exactly: a value found here is in `known` for sure, which
   * spares the full-text search that would make a long session quadratic (agents pass the
   * same ids again and again).
   */
  private readonly passed = new Set<string>();
  /** How many values `passed` may hold: all of them, unless the text is limited too. */
  private readonly passedCap: number;
  private readonly surelyKnown = (v: string): boolean => this.passed.has(v);
  private clientName: string | undefined;
  private metaClientName: string | undefined;
  /** Each distinct text turn inference keeps, once (`sharedTexts`); undefined when texts are not shared. */
  private texts: Map<string, string> | undefined;

  /** From now on, keeps each text turn inference keeps once (as `sharedTexts`). */
  shareTexts(): void {
    this.texts ??= new Map<string, string>();
  }

  /** `text`, or the same text kept before. */
  private shared(text: string): string {
    const texts = this.texts!;
    const kept = texts.get(text);
    if (kept !== undefined) return kept;
    texts.set(text, text);
    return text;
  }

  /**
   * From now on, groups calls as a builder made with `turns: false` does, and lets the text
   * kept for turn inference go: a live session whose history is dropped mid-session while
   * followers still follow it (they are handed the same calls and events either way, so no
   * one sees the difference; docs/session-memory.md).
   */
  stopInferringTurns(): void {
    this.inferTurns = false;
    this.returned.clear();
    this.known.clear();
    this.passed.clear();
  }

  /** How many characters of text turn inference holds (settling what it holds to count it): for specs of memory. */
  keptTextChars(): number {
    return this.returned.length + this.known.length;
  }

  constructor(options: EpisodeBuilderOptions = {}) {
    this.recordSentAfter = options.sentAfter === true;
    this.inferTurns = options.turns !== false;
    this.returned = new TextStore(options.textChars);
    this.known = new TextStore(options.textChars);
    this.passedCap = options.textChars === undefined ? Number.POSITIVE_INFINITY : PASSED_VALUES_KEPT;
    if (options.sharedTexts === true) this.shareTexts();
  }

  /** Add every message of one log entry (each of a batch; none of a raw line). */
  entry(e: LogEntry): void {
    const m = e.message;
    if (m === undefined) return;
    if (!Array.isArray(m)) return this.message(e.t_ms, e.from, m);
    for (const each of m) this.message(e.t_ms, e.from, each);
  }

  /**
   * Whether a message could change the episode: conversation lines, the requests it reads
   * (a client's first `_meta`, `initialize`, calls, cancellations), and answers to calls it
   * holds. Lets a caller skip work on the rest (progress notifications, pings, listings).
   */
  wants(from: Peer, m: Json): boolean {
    if (from === "context" || Array.isArray(m)) return true;
    const name = from === "client" || from === "proxy" ? method(m) : undefined;
    if (name !== undefined) {
      const unnamed = this.clientName === undefined && this.metaClientName === undefined;
      return (from === "client" && unnamed) || isEpisodeMethod(name);
    }
    if (from !== "server" && from !== "proxy") return false;
    const id = responseId(m);
    const call = id === undefined ? undefined : this.pending.get(id);
    this.asked = call === undefined ? undefined : m;
    this.askedId = id;
    this.askedCall = call;
    return call !== undefined;
  }

  /**
   * The response `wants` last read, its id and the call it answers: `message` on the same
   * message, next, reads them again without a second lookup (a live session asks both of
   * every answer). Any other `message` forgets them, as it may change what is pending.
   */
  private asked: Json | undefined;
  private askedId: Json | undefined;
  private askedCall: Pending | undefined;

  /**
   * `wants`, from the line's bytes alone, where they settle it: a request line that names
   * none of the methods the episode reads, once the client is named, or a response line
   * while no call awaits one. `undefined` when the message must be parsed to tell.
   */
  wantsLine(from: Peer, line: Uint8Array): false | undefined {
    if (from === "server") return this.awaitsNoAnswer() ? false : undefined;
    if (from !== "client" || (this.clientName === undefined && this.metaClientName === undefined)) return undefined;
    return EPISODE_METHODS.some((m) => mayHoldText(line, m)) ? undefined : false;
  }

  /** Whether no call awaits an answer: then no server line could change the episode (`wantsLine`). */
  awaitsNoAnswer(): boolean {
    return this.pending.size === 0;
  }

  message(tMs: number, from: Peer, m: Json): void {
    const asked = this.asked === m && this.asked !== undefined;
    this.asked = undefined;
    if (from === "context") return this.context(m);
    const name = from === "client" || from === "proxy" ? method(m) : undefined;
    // A message with a method is an object.
    if (name !== undefined) return this.request(tMs, from, name, m as JsonObject);
    // The client's responses answer the server's own requests.
    if (from === "server" || from === "proxy") this.response(tMs, m, asked);
  }

  /** The episode, named from `header` (its session, domain and agent model). */
  finish(header: LogHeader): Episode {
    return {
      id: header.session,
      task_id: "",
      trial: 0,
      domain: header.domain ?? "mcp",
      agent_model: header.agent_model ?? this.clientName ?? this.metaClientName ?? "unknown",
      reward: 0,
      events: this.events,
    };
  }

  private context(m: Json): void {
    const content = field(m, "content");
    const text = typeof content === "string" ? content : "";
    if (this.inferTurns) this.known.append(text);
    const role = field(m, "role");
    if (role === "user") this.say({ kind: "user", text });
    else if (role === "assistant" && text !== "") this.say({ kind: "assistant", text, calls: [], usage: null });
  }

  private say(event: EpisodeEvent): void {
    this.events.push(event);
    this.saidSinceTurn = true;
  }

  private request(tMs: number, from: Peer, name: string, m: JsonObject): void {
    // Keys read by name (`own`, json.ts), not `at(...path)`: this runs for every request of a long log.
    const params = own(m, "params", m["params"]);
    if (from === "client" && this.metaClientName === undefined && isObject(params)) {
      const meta = own(params, "_meta", params["_meta"]);
      if (meta !== undefined) this.metaClientName = stringOr(field(field(meta, CLIENT_INFO_META), "name"));
    }
    if (name === "initialize") {
      // The first initialize that names its client; a nameless one leaves room for the next.
      if (this.clientName === undefined) this.clientName = stringOr(field(field(params, "clientInfo"), "name"));
    } else if (name === "tools/call") this.call(tMs, from, m, params);
    else if (name === "notifications/cancelled") this.cancel(params);
  }

  private call(tMs: number, from: Peer, m: JsonObject, params: Json | undefined): void {
    const id = requestId(m);
    const p = isObject(params) ? params : undefined;
    // A string is never an inherited member: no need to ask whether it is the params' own.
    const tool = this.toolName(stringOr(p?.["name"]));
    if (id === undefined || tool === undefined) return;
    const earlier = this.pending.get(id);
    // The proxy passing on the host's own call (the rest of a batch the guards cut) is
    // the same call, not a second one.
    if (from === "proxy" && earlier !== undefined && earlier.name === tool) return;
    // A reused id replaces the earlier call, which can no longer be told apart from it.
    if (earlier !== undefined) {
      this.pending.delete(id);
      if (earlier.holdsTurn) this.open--;
    }
    // Present but null stays null, as serde's pointer would have it; only absent is `{}`.
    const given = p === undefined ? undefined : own(p, "arguments", p["arguments"]);
    const args = given === undefined ? {} : given;
    // Only a call that would otherwise start a turn asks whether it continues the last one.
    const continues =
      this.inferTurns &&
      this.open === 0 &&
      from === "client" &&
      this.answeredMs !== undefined &&
      tMs - this.answeredMs <= SAME_TURN_MS &&
      !this.saidSinceTurn &&
      !usesNewValues(args, this.returned, this.known, this.surelyKnown);
    if (this.open === 0 && !continues) this.startTurn();
    if (this.inferTurns) {
      // Shared, the arguments are written out now: the same text for the same arguments.
      if (this.texts === undefined) this.known.appendJson(args);
      else this.known.append(this.shared(jsonText(args)));
      addScalars(args, this.passed);
      // With limited text, the shortcut is limited too: forgetting it only sends a search to the text window.
      if (this.passed.size > this.passedCap) this.passed.clear();
    }
    const shown = callId(id);
    if (this.recordSentAfter) this.sentAfter.set(shown, this.answered);
    this.turn!.calls.push({ id: shown, name: tool, arguments: args });
    this.open++;
    this.pending.set(id, { callId: shown, name: tool, holdsTurn: true });
  }

  /**
   * One string per tool name: every call and result of a long session names one of a few
   * tools, and a parsed line gives each its own copy.
   */
  private readonly toolNames = new Map<string, string>();
  private toolName(name: string | undefined): string | undefined {
    if (name === undefined) return undefined;
    const kept = this.toolNames.get(name);
    if (kept !== undefined) return kept;
    this.toolNames.set(name, name);
    return name;
  }

  private startTurn(): void {
    // The turn before gains no more calls: its array is copied at its length, as an array
    // grown by push keeps room for 16 more (about 1 MB per 9,000 turns kept).
    if (this.turn !== undefined) this.turn.calls = this.turn.calls.slice();
    this.known.appendStore(this.returned);
    this.returned.clear();
    this.answeredMs = undefined;
    this.answered = 0;
    this.turn = { kind: "assistant", text: null, calls: [], usage: null };
    this.events.push(this.turn);
    this.saidSinceTurn = false;
  }

  private cancel(params: Json | undefined): void {
    const id = field(params, "requestId");
    const p = id === undefined ? undefined : this.pending.get(id);
    if (p?.holdsTurn) {
      p.holdsTurn = false;
      this.open--;
    }
  }

  /** A response; `asked` when `wants` just looked it up (`askedId`, `askedCall`). */
  private response(tMs: number, m: Json, asked: boolean): void {
    const id = asked ? this.askedId : responseId(m);
    if (id === undefined) return;
    const call = asked ? this.askedCall : this.pending.get(id);
    // Only the first response counts: the proxy's copy of an answer is not a second result.
    if (call === undefined) return;
    this.pending.delete(id);
    if (call.holdsTurn) {
      this.open--;
      this.answered++;
      if (this.open === 0) this.answeredMs = tMs;
    }
    if (this.lazyResults && !this.inferTurns) {
      this.events.push(new LazyToolResult(call.callId, call.name, readResult(m)));
      return;
    }
    const { error, content } = outcome(m);
    if (this.inferTurns) this.returned.append(this.texts === undefined ? content : this.shared(content));
    this.events.push({ kind: "tool_result", call_id: call.callId, name: call.name, error, content });
  }
}

/** Whether the episode reads requests of `name` (`EPISODE_METHODS`, compared without a call into the runtime). */
function isEpisodeMethod(name: string): boolean {
  return name === "tools/call" || name === "initialize" || name === "notifications/cancelled";
}

function stringOr(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}
