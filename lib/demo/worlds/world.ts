import type { Json, JsonObject } from "../json.js";

/** What a tool call answers: one text item, and whether it is an error result. */
export interface ToolReply {
  text: string;
  isError: boolean;
}

/** A set of tools the demo serves: the echo world or the shop. */
export interface World {
  /** The tools as `tools/list` shows them, in order. */
  tools(): JsonObject[];
  /** The reply to a call, or `undefined` when the world has no such (listed) tool. */
  call(name: string, args: Json): ToolReply | undefined;
}

export type WorldName = "echo" | "retail" | "telecom";
