import { CALL_CHECK, CONVERSATION, JUDGED_CALL_CHECK, decide, errorLine, type Frame, keepMessages, messagesOf, type Plugin, type PluginContext, type PluginFactory, toolAnswer, type WireMessage } from "../index.js";
import { refusalNotice, refusalText, type Decision } from "../../guards/check.js";
import { EventCursor } from "../../guards/event-cursor.js";
import { guardsFor } from "../../guards/domains.js";
import type { Json } from "../../trace/json.js";
import type { EpisodeEvent, ToolCall } from "../../trace/episode-types.js";
import { isObject } from "../../util/is-object.js";
import { SeenSoFar } from "../../guards/confirm/seen-so-far.js";
import type { ConfirmJudge } from "../../guards/confirm/judge.js";
import type { ConfirmLogSink } from "./confirm-log.js";

export interface GuardsPluginOptions {
  domain: string;
  /**
   * `--confirm-judge`: the session's judge, asked about each write the domain's `*.confirmed`
   * rule covers once the enforced rules have passed it.
   */
  judge?: (session: PluginContext) => ConfirmJudge;
  /** Where each judgment is written (`--confirm-log`, else `<session>.confirm.jsonl`), if anywhere. */
  confirmLog?: (session: PluginContext) => ConfirmLogSink | undefined;
}

/** A call's id in the episode, from the host's message: a string as is, anything else as its JSON (only the judge reads it). */
function callId(m: WireMessage): string {
  const id = m.value["id"];
  return typeof id === "string" ? id : JSON.stringify(id);
}

/** What the check says of one call: it may go on, or it is refused (and why, and the text the agent gets). */
type CallVerdict = { refused: boolean; reason?: string; text?: string };

const GOES_ON: CallVerdict = { refused: false };

/**
 * `--guards`: each of the agent's `tools/call` requests is checked against the domain's
 * policy before the server sees it. A call an enforced rule refuses never reaches the
 * server; the agent gets an error result instead. Calls inside a batch are checked one
 * by one (docs/guard-mode.md, "Batches"): a guard that a batch can walk around is no guard.
 *
 * With a confirmation judge, a write the word list's rule covers then waits for the judge
 * (docs/confirm-judge.md). The wait is a `decide` that takes time: the host's later lines
 * wait behind the write, in order, and nothing else does (the server's answers go on).
 */
export function guardsPlugin(options: GuardsPluginOptions): PluginFactory {
  return (session): Plugin => {
    const guards = guardsFor(options.domain);
    const judge = options.judge?.(session);
    const confirmLog = judge === undefined ? undefined : options.confirmLog?.(session);
    const confirmedTools = new Set(guards.rules.filter((r) => r.id.endsWith(".confirmed")).flatMap((r) => r.tools));
    // What the judge reads, kept beside the guards' facts (only when there is a judge).
    const seen = judge === undefined ? undefined : new SeenSoFar();
    const apply = (e: EpisodeEvent) => {
      guards.facts.apply(e);
      seen?.apply(e);
    };
    const applyCall = (c: ToolCall) => {
      guards.facts.addCall(c);
      seen?.addCall(c.id);
    };
    // The facts follow the Episode as it is logged, so it need keep no history; a context
    // made by hand without `followEpisode` is read with a cursor before each check instead.
    const cursor = session.followEpisode === undefined ? new EventCursor(() => session.episode()) : undefined;
    session.followEpisode?.({ event: apply, call: applyCall, keepsNoEvents: true });
    const sync = () => {
      session.service(CONVERSATION)?.readContext();
      cursor?.forEachNew(apply, applyCall);
    };
    const check = (name: string, args: unknown): Decision => {
      sync();
      return guards.check({ name, arguments: (args ?? {}) as Record<string, unknown> } as Parameters<typeof guards.check>[0]);
    };

    /**
     * The guards' verdict, then the judge's for a write it covers: a promise only when the
     * judge is asked. `call` is the host's message, whose id is the call's in the episode (a commit's call has none yet).
     */
    const verdictOn = (name: string, args: unknown, call: WireMessage | undefined): CallVerdict | Promise<CallVerdict> => {
      const d = check(name, args);
      if (d.refused) return { refused: true, reason: d.reason!, text: d.text! };
      if (judge === undefined || seen === undefined || !confirmedTools.has(name)) return GOES_ON;
      const wordList = d.verdicts.filter((v) => v.rule.endsWith(".confirmed")).every((v) => v.verdict.verdict === "pass");
      return judge.judge({ tool: name, arguments: (args ?? {}) as Json }, seen.before(call === undefined ? undefined : callId(call)), wordList).then((j) => {
        confirmLog?.write(j.line);
        return j.refusal === undefined ? { refused: false } : { refused: true, reason: j.refusal };
      });
    };

    // The commit tool runs each of its calls through these checks (the judged one when there is a judge).
    session.provide(CALL_CHECK, (call) => {
      const d = check(call.name, call.arguments);
      return d.reason === undefined ? { refused: d.refused } : { refused: d.refused, reason: d.reason };
    });
    if (judge !== undefined) session.provide(JUDGED_CALL_CHECK, (call) => Promise.resolve(verdictOn(call.name, call.arguments, undefined)));

    const refuse = (m: WireMessage, name: string, v: CallVerdict): void => {
      const reason = v.reason!;
      session.say(refusalNotice(name, reason));
      session.toClient(toolAnswer(m, v.text ?? refusalText(name, reason), true), "refusal");
    };

    /** Answers a call the guards refuse, or cannot judge; true when it must not go on (later, when the judge is asked). */
    const refuses = (m: WireMessage): boolean | Promise<boolean> => {
      if (m.method !== "tools/call" || m.idText === undefined) return false;
      const params = m.value["params"];
      const name = isObject(params) ? params["name"] : undefined;
      if (typeof name !== "string") return unjudged(m, "a tools/call without a tool name");
      if (!guards.guards(name)) return false;
      const args = (params as Record<string, unknown>)["arguments"];
      if (args !== undefined && args !== null && !isObject(args)) return unjudged(m, `the arguments of ${name} are not an object`);
      const v = verdictOn(name, args, m);
      const settle = (v: CallVerdict): boolean => {
        if (v.refused) refuse(m, name, v);
        return v.refused;
      };
      return v instanceof Promise ? v.then(settle) : settle(v);
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
      readsEpisode: false,
      client: decide((f: Frame) => {
        const messages = messagesOf(f);
        // The bus refuses every host line it cannot read before a judging plugin sees it.
        if (messages === undefined) return [];
        // One message (all but a batch): its verdict decides the line, with no lists made.
        if (messages.length === 1) {
          const v = refuses(messages[0]!);
          if (v === false) return [f];
          if (v === true) return keepMessages(f, messages, () => false);
          return v.then((refused) => (refused ? keepMessages(f, messages, () => false) : [f]));
        }
        const verdicts = messages.map((m) => refuses(m));
        if (!verdicts.some((v) => v instanceof Promise)) return keepMessages(f, messages, (m) => !verdicts[messages.indexOf(m)]);
        // A write the judge is asked about: this line (and, by `decide`, every later one) waits.
        return Promise.all(verdicts.map((v) => Promise.resolve(v))).then((refused) => keepMessages(f, messages, (m) => !refused[messages.indexOf(m)]));
      }),
    };
  };
}
