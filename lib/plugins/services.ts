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
export type CallCheck = (call: CheckedCall) => CallVerdict;

export interface CallVerdict {
  refused: boolean;
  reason?: string;
}

/** The same check, then the confirmation judge's for a write it covers: it takes time, and logs the judgment. */
export type JudgedCallCheck = (call: CheckedCall) => Promise<CallVerdict>;

/** Provided by the guards plugin (`--guards`): the domain's policy check of one call. */
export const CALL_CHECK = serviceKey<CallCheck>("call-check");

/**
 * Provided by the guards plugin with `--confirm-judge`: CALL_CHECK, then the judge. The
 * commit tool asks it for each of its calls; ask it only for a call about to be made, since
 * each answer is a judgment (counted against the session's questions, and logged).
 */
export const JUDGED_CALL_CHECK = serviceKey<JudgedCallCheck>("judged-call-check");
