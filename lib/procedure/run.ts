import { bindArguments, guardKey, Passed, unlabel } from "./bind.js";
import { isSplit, type Node, type Procedure } from "./ir.js";
import type { JsonObject } from "./json.js";
import { RunState } from "./state.js";

/** What a tool call gives back: its text, and whether the server called it an error. */
export interface ToolResult {
  content: string;
  failed: boolean;
}

/**
 * The tools a run calls. A call that throws (the server went away, an error reply) aborts
 * the whole run; a failed call (`failed: true`) is part of it.
 */
export interface Tools {
  call(tool: string, args: JsonObject): Promise<ToolResult>;
}

export interface Call {
  tool: string;
  /** The arguments as sent: symbols bound. */
  arguments: JsonObject;
  failed: boolean;
}

export type Verdict = "resolved" | "transferred" | "hand_back";

export interface Run {
  calls: Call[];
  /** The check's probe and what it said, or null when no check was made. */
  check: [probe: string, content: string] | null;
  verdict: Verdict;
}

/** Walks a tree's questions down to a leaf. */
function leafOf(node: Node, features: ReadonlySet<string>): Node & { calls: Array<[string, number]> } {
  let n = node;
  while (isSplit(n)) n = features.has(n.feature) ? n.yes : n.no;
  return n;
}

/**
 * Runs a procedure on a ticket: at each site, the tree's leaf gives the actions to try in
 * order, and the first that binds and is not a repeat is called. A leaf that runs out, or
 * reaches `stop`, ends the run, as does the hand-off or `max_calls`. Then the ticket's
 * stated outcome, if any, is checked with one more call.
 */
export async function runProcedure(procedure: Procedure, ticket: string, tools: Tools): Promise<Run> {
  const state = new RunState(ticket, procedure.vocab, procedure.symbolic);
  const passed = new Passed();
  // The guard: every call made, and the reads made since the last write.
  const made = new Set<string>();
  let sinceWrite = new Set<string>();
  const calls: Call[] = [];

  for (let n = 0; n < procedure.max_calls; n++) {
    const leaf = leafOf(procedure.trees.get(state.site) ?? procedure.fallback, state.features());
    let chosen: { action: string; tool: string; args: JsonObject; key: string } | undefined;
    for (const [action] of leaf.calls) {
      if (action === procedure.stop) break;
      const call = unlabel(action, procedure);
      const args = bindArguments(call, procedure, state, passed);
      if (args === undefined) continue;
      const key = guardKey(call.tool, args);
      // A read may be made again once something has changed; a write never twice alike.
      const repeat = procedure.reads.has(call.tool) ? sinceWrite.has(key) : made.has(key);
      if (repeat) continue;
      chosen = { action, tool: call.tool, args, key };
      break;
    }
    if (chosen === undefined) break;

    const result = await tools.call(chosen.tool, chosen.args);
    passed.record(chosen.tool, chosen.args);
    if (procedure.reads.has(chosen.tool)) sinceWrite.add(chosen.key);
    else {
      sinceWrite = new Set();
      state.fixes.add(chosen.action);
    }
    made.add(chosen.key);
    state.called.add(chosen.tool);
    state.takeIn(chosen.tool, result.content, result.failed);
    calls.push({ tool: chosen.tool, arguments: chosen.args, failed: result.failed });
    if (chosen.tool === procedure.handoff) break;
  }

  if (calls.length > 0 && calls[calls.length - 1]!.tool === procedure.handoff) {
    return { calls, check: null, verdict: "transferred" };
  }
  const lowered = ticket.toLowerCase();
  const check = procedure.checks.find((c) => lowered.includes(c.phrase));
  if (check === undefined) return { calls, check: null, verdict: "hand_back" };
  // The probe is not part of the run: not guarded, not counted, its failure flag unread.
  const probe = await tools.call(check.probe, new Map());
  const said = probe.content.toLowerCase();
  const holds = check.contains.every((s) => said.includes(s)) && !check.lacks.some((s) => said.includes(s));
  return { calls, check: [check.probe, probe.content], verdict: holds ? "resolved" : "hand_back" };
}
