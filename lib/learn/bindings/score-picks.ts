/**
 * The later passes over the training episodes: the serving binder's own `pick` is run where the agent
 * made each read call, and after each result, and scored by what the agent did.
 *
 * - At each read call, with the session as it stood and the turn's earlier calls in
 *   flight: did the pick equal the agent's arguments? Tallied by whether the customer
 *   mentioned the picked values.
 * - After each successful result, for each tool learned: a pick whose values the
 *   customer did not name while naming others, or whose described record was already
 *   read, counts once per episode; it was used if a later call of the tool passed them.
 */
import type { Episode, ToolCall } from "../../trace/index.js";
import { isObject, type Json } from "../../trace/json.js";
import { SessionReading, SessionView, lowerScalars, parseOutput, pick, valueText, type ParseOutput, type ParsedOutput } from "../../flow/bind/index.js";
import type { Bindings, ToolKind, UsedCount } from "../../flow/ir/index.js";

function passesAll(call: ToolCall, args: Record<string, Json>): boolean {
  const given = call.arguments;
  if (!isObject(given)) return false;
  return Object.keys(args).every((k) => Object.hasOwn(given, k) && valueText(given[k]!) === valueText(args[k]!));
}

function tally(table: Map<string, UsedCount>, tool: string, used: boolean): void {
  const [u, n] = table.get(tool) ?? [0, 0];
  table.set(tool, [u + (used ? 1 : 0), n + 1]);
}

/** Later calls of `tool` in `ep` after event `i`. */
function laterCalls(ep: Episode, i: number, tool: string): ToolCall[] {
  const out: ToolCall[] = [];
  for (let k = i + 1; k < ep.events.length; k++) {
    const e = ep.events[k]!;
    if (e.kind === "assistant") for (const c of e.calls) if (c.name === tool) out.push(c);
  }
  return out;
}

/**
 * Each distinct output of the episode parsed once, its paths walked once (`foundAt` keeps
 * the walks), as the live session's reading does: `pick` runs after every result, and
 * would otherwise walk every earlier output (and match the customer's text against what it
 * found) again each time.
 */
function parseOnce(): ParseOutput {
  const parsed = new Map<string, ParsedOutput>();
  return (content) => {
    let p = parsed.get(content);
    if (p === undefined) {
      const value = parseOutput(content);
      parsed.set(content, (p = { value, scalars: lowerScalars(value), walks: new Map() }));
    }
    return p;
  };
}

export function scorePicks(bindings: Bindings, ep: Episode, kinds: ReadonlyMap<string, ToolKind>): void {
  const tools = [...bindings.args.keys()];
  const closed = new SessionReading(undefined, parseOnce());
  const counted = new Set<string>();
  ep.events.forEach((e, i) => {
    if (e.kind === "assistant") {
      e.calls.forEach((c, j) => {
        if (kinds.get(c.name) !== "read") return;
        const reading = new SessionReading(closed);
        reading.inFlight(e.calls.slice(0, j));
        const picked = pick(bindings, c.name, new SessionView(reading));
        if (!picked.ok || Object.keys(picked.args).length === 0) return;
        const same = passesAll(c, picked.args);
        const row = bindings.agreed.get(c.name) ?? [
          [0, 0],
          [0, 0],
        ];
        const k = picked.mention === "picked" ? 1 : 0;
        row[k] = [row[k][0] + (same ? 1 : 0), row[k][1] + 1];
        bindings.agreed.set(c.name, row);
      });
    }
    closed.read(e);
    if (e.kind !== "tool_result" || e.error) return;
    const view = new SessionView(new SessionReading(closed));
    for (const tool of tools) {
      const picked = pick(bindings, tool, view);
      if (!picked.ok || (picked.mention !== "other" && picked.mention !== "described")) continue;
      const key = `${tool}\u0000${JSON.stringify(picked.args)}`;
      if (counted.has(key)) continue;
      counted.add(key);
      const used = laterCalls(ep, i, tool).some((c) => passesAll(c, picked.args));
      tally(picked.mention === "other" ? bindings.namedOther : bindings.describedRead, tool, used);
    }
  });
}
