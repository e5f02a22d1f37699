/**
 * The services the built-in plugins offer any plugin of the session. Each is provided by
 * the plugin named beside it; look it up with `session.service(KEY)` when you need it.
 */
import { serviceKey } from "../bus/runtime/services.js";

/** The conversation file (`--context`): reading it logs what the host appended since the last read. */
export interface Conversation {
  readContext(): void;
}

/** Provided by the context plugin (`--context FILE`). */
export const CONVERSATION = serviceKey<Conversation>("conversation");

/** A tool call as a check sees it. */
export interface CheckedCall {
  name: string;
  arguments: unknown;
}

/** Whether a call may run, and why not. */
export type CallCheck = (call: CheckedCall) => { refused: boolean; reason?: string };

/** Provided by the guards plugin (`--guards`): the domain's policy check of one call. */
export const CALL_CHECK = serviceKey<CallCheck>("call-check");
