import { CALL_CHECK, CONVERSATION, decide, errorLine, type Frame, keepMessages, messagesOf, type Plugin, type PluginFactory, toolAnswer, type WireMessage } from "../index.js";
import { refusalNotice, type Decision } from "../../guards/check.js";
import { EventCursor } from "../../guards/event-cursor.js";
import { guardsFor } from "../../guards/domains.js";
import { isObject } from "../../util/is-object.js";

export interface GuardsPluginOptions {
  domain: string;
}

/**
 * `--guards`: each of the agent's `tools/call` requests is checked against the domain's
 * policy before the server sees it. A call an enforced rule refuses never reaches the
 * server; the agent gets an error result instead. Calls inside a batch are checked one
 * by one (docs/guard-mode.md, "Batches"): a guard that a batch can walk around is no guard.
 */
export function guardsPlugin(options: GuardsPluginOptions): PluginFactory {
  return (session): Plugin => {
    const guards = guardsFor(options.domain);
    const cursor = new EventCursor(() => session.episode());
    const sync = () => {
      session.service(CONVERSATION)?.readContext();
      cursor.forEachNew(
        (e) => guards.facts.apply(e),
        (c) => guards.facts.addCall(c),
      );
    };
    const check = (name: string, args: unknown): Decision => {
      sync();
      return guards.check({ name, arguments: (args ?? {}) as Record<string, unknown> } as Parameters<typeof guards.check>[0]);
    };
    // The commit tool runs each of its calls through this check.
    session.provide(CALL_CHECK, (call) => {
      const d = check(call.name, call.arguments);
      return d.reason === undefined ? { refused: d.refused } : { refused: d.refused, reason: d.reason };
    });

    /** Answers a call the guards refuse, or cannot judge; true when it must not go on. */
    const refuses = (m: WireMessage): boolean => {
      if (m.method !== "tools/call" || m.idText === undefined) return false;
      const params = m.value["params"];
      const name = isObject(params) ? params["name"] : undefined;
      if (typeof name !== "string") return unjudged(m, "a tools/call without a tool name");
      if (!guards.guards(name)) return false;
      const args = (params as Record<string, unknown>)["arguments"];
      if (args !== undefined && args !== null && !isObject(args)) return unjudged(m, `the arguments of ${name} are not an object`);
      const d = check(name, args);
      if (!d.refused) return false;
      session.say(refusalNotice(name, d.reason!));
      session.toClient(toolAnswer(m, d.text!, true), "refusal");
      return true;
    };
    /** What the guards cannot read, they cannot let through. */
    const unjudged = (m: WireMessage, what: string): boolean => {
      const message = `stretto-proxy: ${what} cannot be checked by the policy guards, so it was not run`;
      session.say(`refused a call: ${what} cannot be checked`);
      session.toClient(errorLine(m.idText, -32602, message), "refusal");
      return true;
    };

    return {
      name: "guards",
      judgesHostLines: true,
      client: decide((f: Frame) => {
        const messages = messagesOf(f);
        // The bus refuses every host line it cannot read before a judging plugin sees it.
        if (messages === undefined) return [];
        return keepMessages(f, messages, (m) => !refuses(m));
      }),
    };
  };
}
