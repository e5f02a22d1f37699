/**
 * One session's guards: a domain's rules and the facts of the session so far. Feed it the
 * session's events as they happen (`facts.addUser` / `addCall` / `addResult`, or
 * `facts.apply(event)` for whole episode events), and ask it about each call before the
 * call is sent and before the call itself is added.
 */
import { decision, verdicts, type Decision } from "./check.js";
import { Facts } from "./facts.js";
import type { GuardedCall, Rule } from "./rule.js";

export class Guards {
  readonly facts = new Facts();
  /** The rules each tool has, in rule order. */
  private readonly byTool = new Map<string, Rule[]>();

  constructor(
    readonly domain: string,
    readonly rules: readonly Rule[],
  ) {
    for (const rule of rules) {
      for (const tool of rule.tools) {
        const list = this.byTool.get(tool);
        if (list) list.push(rule);
        else this.byTool.set(tool, [rule]);
      }
    }
  }

  /** Whether any rule applies to `tool` (a call of another tool always passes). */
  guards(tool: string): boolean {
    return this.byTool.has(tool);
  }

  /** The decision on `call`, on what the session has shown so far. */
  check(call: GuardedCall): Decision {
    return decision(call.name, verdicts(this.byTool.get(call.name) ?? [], this.facts, call));
  }
}
