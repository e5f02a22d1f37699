/**
 * The Episode: one conversation between an agent, a user and a set of tools, flattened into
 * events in the order they happened. The JSON shape (snake_case fields, events tagged by
 * `kind`) is a published format (docs/trace.md, "The Episode"): Episodes written by other
 * tools, and τ²-bench results read as Episodes, must read the same, so it is kept exactly.
 */
import type { Json } from "./json.js";

/** One tool call the agent made. */
export interface ToolCall {
  /** The JSON-RPC id: a string as is, anything else as its JSON text (`7`). */
  id: string;
  name: string;
  /** As sent (`{}` when the request had none). */
  arguments: Json;
}

/** Tokens and cost of one LLM call, when the source recorded them (logs never do). */
export interface TurnUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

export interface UserEvent {
  kind: "user";
  text: string;
}

/** One LLM turn: tool calls, or a reply to the user when `calls` is empty. */
export interface AssistantEvent {
  kind: "assistant";
  text: string | null;
  calls: ToolCall[];
  usage: TurnUsage | null;
}

export interface ToolResultEvent {
  kind: "tool_result";
  call_id: string;
  name: string;
  error: boolean;
  content: string;
}

export type EpisodeEvent = UserEvent | AssistantEvent | ToolResultEvent;

export interface Episode {
  /** Unique id of this run; from a log, its session id. */
  id: string;
  /** Benchmark task id; `""` from a log. */
  task_id: string;
  /** Trial index; 0 from a log. */
  trial: number;
  domain: string;
  /** The model that drove the agent; from a log, the header's, else the host's name. */
  agent_model: string;
  /** Reward in [0, 1]; 0 from a log, which does not know the outcome. */
  reward: number;
  events: EpisodeEvent[];
}
