import { frame, type Frame } from "../../bus/frame.js";
import type { Plugin, PluginFactory } from "../api.js";
import { decide } from "../decide.js";
import { isRequest, jsonOf, line, toolResult, type RpcRequest } from "../json-rpc.js";
import type { CallCheck } from "../commit/commit-plugin.js";
import type { ContextReader } from "../context/context-plugin.js";
import { refusalNotice, type Decision } from "./check.js";
import { EventCursor } from "./event-cursor.js";
import { guardsFor } from "./domains.js";

export interface GuardsPluginOptions {
  domain: string;
  context?: () => ContextReader | undefined;
  /** Receives the check, for the commit tool to run each of its calls through. */
  share?: (check: CallCheck) => void;
}

/**
 * `--guards`: each of the agent's `tools/call` requests is checked against the domain's
 * policy before the server sees it. A call an enforced rule refuses never reaches the
 * server; the agent gets an error result instead. Calls inside a batch are checked one
 * by one (decision 7): a guard that a batch can walk around is no guard.
 */
export function guardsPlugin(options: GuardsPluginOptions): PluginFactory {
  return (session): Plugin => {
    const guards = guardsFor(options.domain);
    const cursor = new EventCursor(() => session.episode());
    const sync = () => {
      options.context?.()?.readContext();
      cursor.forEachNew(
        (e) => guards.facts.apply(e),
        (c) => guards.facts.addCall(c),
      );
    };
    const check = (name: string, args: unknown): Decision => {
      sync();
      return guards.check({ name, arguments: (args ?? {}) as Record<string, unknown> } as Parameters<typeof guards.check>[0]);
    };
    options.share?.((call) => {
      const d = check(call.name, call.arguments);
      return { refused: d.refused, reason: d.reason };
    });

    /** Answers a refused call; true when it was refused. */
    const refuses = (req: RpcRequest): boolean => {
      const params = req.params as { name?: unknown; arguments?: unknown } | undefined;
      if (req.method !== "tools/call" || typeof params?.name !== "string" || !guards.guards(params.name)) return false;
      const d = check(params.name, params.arguments);
      if (!d.refused) return false;
      session.say(refusalNotice(params.name, d.reason!));
      session.toClient(toolResult(req.id, d.text!, true));
      return true;
    };

    return {
      name: "guards",
      client: decide((f: Frame) => {
        const msg = jsonOf(f);
        if (isRequest(msg)) return refuses(msg) ? [] : [f];
        if (!Array.isArray(msg)) return [f];
        const kept = msg.filter((m) => !(isRequest(m) && refuses(m)));
        if (kept.length === msg.length) return [f];
        return kept.length === 0 ? [] : [frame("proxy", f.tMs, line(kept))];
      }),
    };
  };
}
