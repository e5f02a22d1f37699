import type { Observable, OperatorFunction } from "../rx.js";
import type { Clock } from "../clock.js";
import type { Frame } from "../frame.js";
import type { Episode, EpisodeEvent, ToolCall } from "../../trace/episode-types.js";
import type { RpcResponse } from "./json-rpc.js";
import type { ServiceKey } from "./services.js";

/**
 * The plugin API. A plugin is a function of the session (its streams and injected
 * dependencies) returning operators, redux-observable style: no hidden globals, so a test
 * can hand a plugin a fake context. Built-in features (guards, commit, context, flows) are
 * plugins on this same API.
 *
 * Frames reach a plugin as whole lines, in the order they were read. An operator emits the
 * frames that go on: the same frame object passes it on untouched (its bytes stay exact);
 * a frame with `from: "proxy"` is a line the proxy composed (it is logged as a `proxy`
 * entry); emitting nothing for a frame withholds it. Use `decide()` for decisions that take
 * time: it keeps the order, so a slow decision never lets a later line overtake.
 */
export interface Plugin {
  readonly name: string;
  /** Lines from the host on their way to the server. */
  readonly client?: OperatorFunction<Frame, Frame>;
  /** Lines from the server on their way to the host (answers to the proxy's own requests never come here). */
  readonly server?: OperatorFunction<Frame, Frame>;
  /**
   * Called with each line as it is read, just before it is logged: the place to log what
   * must stand in front of it (the conversation before a tool call). Keep it quick.
   */
  readonly sees?: (frame: Frame) => void;
  /** Called once when the host's input ends, before the server's input is closed. */
  readonly hostEnded?: () => void;
  /**
   * True for a plugin that judges the host's lines (the guards). The bus then fails closed
   * for the whole session: a host line reaches the plugins, and so the server, only if it
   * passes the strict check (`checkLine`: exact UTF-8 JSON, no key twice, no bare CR, ids
   * that are strings or integers, …). What fails is answered with a JSON-RPC error, said on
   * stderr, logged as `raw`, and never forwarded.
   */
  readonly judgesHostLines?: boolean;
  /**
   * Whether the plugin reads the session's whole Episode (`episode()`); true unless it says
   * false. When every plugin of a session says false, the Episode keeps no history: each
   * event reaches `followEpisode`'s followers and is dropped, so a long session runs in
   * flat memory (docs/session-memory.md). A plugin that says false keeps what it needs.
   */
  readonly readsEpisode?: boolean;
}

/** Follows the session's Episode event by event (`PluginContext.followEpisode`). */
export interface EpisodeFollower {
  /** A user message, an agent's text, or a tool result (a turn of calls comes through `call`). */
  event(e: EpisodeEvent): void;
  /** A call, as it joins its turn. */
  call(c: ToolCall): void;
  /**
   * True when the follower reads each event only while it is handed and keeps none: a tool
   * result may then come as a `LazyToolResult` (lib/trace/lazy-result.ts), whose `content`
   * is made when first read and is not an own property of the event.
   */
  keepsNoEvents?: boolean;
}

/**
 * Follows the Episode with its LLM turns (`PluginContext.followTurns`): `turn()` says a new
 * turn of calls begins, and the calls that follow through `call` join it until the next
 * `turn()`, as they join the turns of a whole Episode.
 */
export interface TurnFollower extends EpisodeFollower {
  turn(): void;
}

/** What `--plugin <module>` modules export by default. */
export type PluginFactory = (session: PluginContext) => Plugin | Promise<Plugin>;

/** The answer to one of the proxy's own requests, or why there is none. */
export type OwnAnswer =
  | { kind: "answer"; response: RpcResponse; frame: Frame }
  | { kind: "no-answer"; why: "patience" | "server-gone" };

export interface OwnRequestOptions {
  /** How long to wait for the answer (default 60 s); a later answer is logged, not forwarded. */
  patienceMs?: number;
}

export interface PluginContext {
  readonly clock: Clock;
  /** `--domain`, if given. */
  readonly domain: string | undefined;
  /** The session id (names the log). */
  readonly session: string;
  /** The host session (`STRETTO_SESSION`, else `host-<ppid>`), when known. */
  readonly hostSession: string | undefined;
  /** Every line in log order: client, server, proxy and context entries, as recorded. */
  readonly frames$: Observable<Frame>;
  /**
   * Sends a line the proxy composed to the host (logged as a `proxy` entry). Mark a line
   * that refuses something `"refusal"`: `stretto replay` reports it as `refused`.
   */
  toClient(bytes: Buffer, kind?: "refusal"): void;
  /**
   * Sends the proxy's own request to the server with the next `stretto-<n>` id (one counter
   * per session, shared by every plugin) and resolves with its answer.
   */
  request(method: string, params: unknown, options?: OwnRequestOptions): Promise<OwnAnswer>;
  /** The id the next own request will use, without sending it. */
  nextOwnId(): string;
  /** Appends an entry to the session log (and the session's episode). */
  log(from: "proxy" | "context", bytes: Buffer): void;
  /**
   * The session's Episode so far, kept incrementally (the lines logged since it was last
   * asked for are read now, so a session that never asks never reads them); it holds no
   * events once handed on in a session whose plugins all say `readsEpisode: false`.
   */
  episode(): Episode;
  /**
   * Hands `follower` each event of the session's Episode, in log order, as each line is
   * logged (call it while setting up). Optional, for contexts a test makes by hand.
   */
  followEpisode?(follower: EpisodeFollower): void;
  /**
   * `followEpisode`, with each new LLM turn said (`TurnFollower.turn`): the session goes on
   * inferring turns as a whole Episode does (the time and value-passing rules) even once it
   * keeps no history, so the follower can keep what it reads of the session itself (the flow
   * does, in bounded memory). The events are handed when the session's Episode is next
   * asked for (`episode()`), or once too many lines wait, unless another follower has each
   * line read as it is logged. Call it while setting up. Optional, for contexts a test makes
   * by hand.
   */
  followTurns?(follower: TurnFollower): void;
  /**
   * Says this plugin no longer reads the session's whole Episode, as if it had said
   * `readsEpisode: false` from the start (the flow, once its caps are reached, decides
   * nothing more). Once no plugin reads it whole, the Episode drops its history and keeps
   * none from then on: each event still reaches the followers first. Calling it again does
   * nothing. Optional, for contexts a test makes by hand.
   */
  releaseEpisode?(): void;
  /** Says something on stderr, prefixed `stretto-proxy:`. */
  say(message: string): void;
  /** Whether the server can still take lines (false once its input has closed). */
  serverOpen(): boolean;
  /**
   * Offers a service to the other plugins of the session (call it while setting up). Two
   * plugins providing one key is a setup error.
   */
  provide<T>(key: ServiceKey<T>, service: T): void;
  /**
   * The service a plugin of this session provides under `key`, or undefined when none does.
   * Look it up when you need it, not while setting up: plugins set up in option order.
   */
  service<T>(key: ServiceKey<T>): T | undefined;
}
