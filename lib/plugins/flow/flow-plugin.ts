import { CONVERSATION, DEFAULT_PATIENCE_MS, type Frame, frame, idKey, jsonOf, mayHold, type OwnAnswer, type Plugin, type PluginContext, type PluginFactory, requestOf, responseOf, type RpcId, type RpcResponse } from "../index.js";
/**
 * `--flow`: serves a flow behind the agent's calls (docs/flows.md, "Serve a flow"). When the server answers one of the agent's `tools/call`s, the plugin holds the
 * answer and runs the flow's program live: each decision comes from the decider, each
 * lookup is the proxy's own request (`stretto-<n>`), and when the flow hands back the agent
 * gets its own result with the lookups appended (or the server's bytes unchanged when none was made).
 * One flow runs at a time: an answer that arrives meanwhile goes on unchanged.
 */
import { type Observable, tap } from "../rx.js";
import { passOrHold } from "./pass-or-hold.js";
import type { Oracle } from "../../oracle/oracle.js";
import type { Json, JsonObject } from "../../trace/json.js";
import { resultText, withAppendix, writtenId, type Looked } from "./appendix.js";
import { explainingBinderIn, learnListedTools, withheld, type ExplainingBinder, type ListedTools } from "../../flow/bind/index.js";
import { contextLength, decisionLine, emptyNext, ERR, flowServers, FollowedEpisode, isNext, LiveDecisions, liveSite, nextExplored, nextLocal, OK, openSite, siteName, siteOptions, type BindFn, type DecideInput, type DeciderName, type ExploreSettings, type Next, type Step } from "../../flow/decide/index.js";
import type { FlowLogSink } from "./flow-log.js";
import type { Flow } from "../../flow/ir/flow-types.js";
import { FlowProgram, runLine, runLineText, type DecisionRequest, type LiveCallbacks } from "../../flow/program/index.js";
import { ServedServer } from "./served-server.js";
import { SessionGate } from "./surprise.js";
import { errorText } from "../../util/error-text.js";

/** The caps' defaults (the options table in docs/flows.md, "Serve a flow"). */
export const PER_CALL = 8;
export const PER_SESSION = 40;
export const MAX_QUESTIONS = 300;
export const DEFAULT_THRESHOLD = 0.3;

export interface FlowSettings {
  flow: Flow;
  decider: DeciderName;
  /** Asked by the arbiter only. */
  oracle?: Oracle;
  /** `--flow-threshold` (0.3). */
  threshold?: number;
  /** `--flow-per-call` (8): the most lookups appended to one result, and the program's `max_lookups`. */
  perCall?: number;
  /** `--flow-per-session` (40). */
  perSession?: number;
  /** `--flow-questions` (300). */
  questions?: number;
  /** `--flow-shadow`: decide and log, look nothing up. */
  shadow?: boolean;
  /** `--flow-tools`: the only tools the flow may look up. */
  flowTools?: readonly string[];
  /** `--task-id`; defaults to the session id. */
  taskId?: string;
  /** `--server-name`: this server's name in a flow learned across servers (served-server.ts). */
  serverName?: string;
  /** `--flow-explore` and `--flow-explore-seed`. */
  explore?: ExploreSettings;
  /** The flow log, or none. Opened by the caller (a factory, so it opens once the session starts). */
  log?: (session: PluginContext) => FlowLogSink | undefined;
  /** How long a lookup may take (60 s). */
  patienceMs?: number;
}

/** An agent call the server has not answered yet. */
interface AgentCall {
  id: RpcId;
  name: string;
}

export function flowPlugin(settings: FlowSettings): PluginFactory {
  return (session): Plugin => {
    const { flow } = settings;
    const perCall = settings.perCall ?? PER_CALL;
    const perSession = settings.perSession ?? PER_SESSION;
    const maxQuestions = settings.questions ?? MAX_QUESTIONS;
    const threshold = settings.threshold ?? DEFAULT_THRESHOLD;
    const patienceMs = settings.patienceMs ?? DEFAULT_PATIENCE_MS;
    const shadow = settings.shadow === true;
    const taskId = settings.taskId ?? session.session;
    const log = settings.log?.(session);

    let program: FlowProgram | undefined;
    try {
      program = new FlowProgram(flow);
    } catch (err) {
      session.say(`${errorText(err)}; the flow will not run`);
    }

    const gate = flow.surprise === undefined ? undefined : new SessionGate(flow, flow.surprise);
    /**
     * The session as the flow keeps it itself, in bounded memory (followed-episode.ts), when
     * the session can tell it the turns and no part of the flow reads the whole Episode: the
     * surprise gate scores every point of it, exploration's draws hash all of it, and the
     * arbiter's question quotes its first and last messages and calls. Then the flow does not
     * read the session's Episode whole (docs/session-memory.md).
     */
    const followed =
      session.followTurns !== undefined && program !== undefined && gate === undefined && settings.explore === undefined && settings.decider !== "arbiter"
        ? new FollowedEpisode(contextLength(flow), () => session.episode())
        : undefined;
    if (followed !== undefined) session.followTurns!(followed);
    const served = new ServedServer(flow, session, settings.serverName, followed);
    /** The gate's hand-back where the flow decides, once the session has surprised it (before any other rule). */
    const surprisedAt = (decisions: LiveDecisions, last: Step | undefined): Next | undefined => {
      if (gate === undefined) return undefined;
      const live = liveSite(last);
      if (live === undefined || siteOptions(flow, live.prev, live.failed).length === 0) return undefined;
      const reason = gate.check(decisions.episodeOf(session.episode()));
      return reason === undefined ? undefined : emptyNext(live.site, reason);
    };
    /** Whether a decision after a call to `tool` could look anything up (the flow's gates and sites never change). */
    const acting = new Map<string, boolean>();
    const actsAt = (tool: string, failed: boolean): boolean => {
      const site = siteName(tool, failed);
      let acts = acting.get(site);
      if (acts === undefined) acting.set(site, (acts = !isNext(openSite(flow, { kind: "call", tool, outcome: failed ? ERR : OK }, threshold))));
      return acts;
    };
    /**
     * The tools whose calls a flow with no log could act after, when that is known by name
     * (a flow learned on one server, without `every_read`): a call that names none of them,
     * and its answer, pass unread. Undefined when every call must be read.
     */
    const actingTools = ((): readonly Buffer[] | undefined => {
      if (log !== undefined || flow.sites.everyRead || flowServers(flow).size > 0) return undefined;
      if (program === undefined) return [];
      const tools = new Set<string>();
      for (const [prev] of flow.sites.next.keys()) if (actsAt(prev, false) || actsAt(prev, true)) tools.add(prev);
      return [...tools].map((t) => Buffer.from(t, "utf8"));
    })();
    /** Whether a line may be a listing or a call the flow could act after (`mayHold` counts a line with an escape as either). */
    const mayMatter = (f: Frame): boolean => actingTools === undefined || mayHold(f, "tools/list") || actingTools.some((t) => f.bytes.includes(t));
    const ownName = (tool: string): string => served.ownName(tool);
    const calls = new Map<string, AgentCall>();
    const listings = new Set<string>();
    let listed: ListedTools | undefined;
    let running = false;
    let lookups = 0;
    let questions = 0;
    const warned = new Set<string>();
    let serverEnded = false;
    let endServer: () => void = () => {};
    const ended = new Promise<OwnAnswer>((resolve) => {
      endServer = () => {
        serverEnded = true;
        resolve({ kind: "no-answer", why: "server-gone" });
      };
    });

    /**
     * Once the flow can decide nothing more (no program, or a session cap reached: neither
     * goes back), it reads the session no more: it lets its reading go and gives the Episode
     * up, so a session with no other plugin reading it whole keeps no history from then on
     * (docs/session-memory.md). Calls and their answers then pass unread.
     */
    let done = false;
    const stopIfDone = (): void => {
      if (done || (program !== undefined && lookups < perSession && questions < maxQuestions)) return;
      done = true;
      calls.clear();
      listings.clear();
      served.forget();
      session.releaseEpisode?.();
    };
    const client = (source: Observable<Frame>) =>
      source.pipe(
        tap((f: Frame) => {
          // Only listings and calls matter here: a line that cannot name either is not parsed.
          if (done || !mayHold(f, "tools/")) return;
          if (!mayMatter(f)) return;
          const req = requestOf(f);
          if (req === undefined) return;
          if (req.method === "tools/list") listings.add(idKey(req.id));
          if (req.method !== "tools/call") return;
          const name = (req.params as { name?: unknown } | undefined)?.name;
          if (typeof name === "string") calls.set(idKey(req.id), { id: req.id, name });
        }),
      );

    /**
     * Whether a flow may run after this answer: a `result` (an `isError` one too, as a failed
     * call; a JSON-RPC error never), no run going, the server still there, the session's caps
     * not reached.
     */
    const mayFollow = (res: RpcResponse): boolean =>
      program !== undefined &&
      res.result !== undefined &&
      (res.error === undefined || res.error === null) &&
      !running &&
      !serverEnded &&
      lookups < perSession &&
      questions < maxQuestions;

    const server = (source: Observable<Frame>) =>
      source.pipe(
        tap({ next: (f: Frame) => served.sees(f), complete: () => endServer() }),
        passOrHold((f: Frame) => {
          // While no listing or call of the agent awaits its answer, no line is one.
          if (calls.size === 0 && listings.size === 0) return f;
          const res = responseOf(f);
          if (res === undefined) return f;
          const key = idKey(res.id);
          if (listings.delete(key)) {
            if (res.result !== undefined) listed = learnListedTools(res.result as Json, listed ?? (new Map() as ListedTools));
            return f;
          }
          const call = calls.get(key);
          if (call === undefined) return f;
          calls.delete(key);
          if (!mayFollow(res)) return f;
          const here = served.decisionsHere();
          if (here === undefined) return f;
          // A run that can look nothing up and has no log to write would change nothing: the
          // answer goes on now, in the same write as its neighbours. Its site is the call's
          // tool, failed or not by this answer (an id reused against the protocol aside).
          if (log === undefined && !actsAt(here.name(call.name), (res.result as { isError?: unknown }).isError === true)) return f;
          const after = typeof call.id === "string" ? call.id : String(call.id);
          const last = here.after(after).last;
          // The last step must be the call: if the agent said something since, no flow runs.
          if (last === undefined || last.kind !== "call") return f;
          running = true;
          return flowRun(f, call, here, after, last).finally(() => {
            running = false;
            stopIfDone();
            // Once the answer has gone out (on a later turn of the event loop), what the next
            // decision would read first is read now, off the agent's path.
            if (!done)
              setImmediate(() => {
                if (!done) here.readAhead();
              });
          });
        }),
      );

    /**
     * Runs the flow after the agent's call `call` (`after`, its step `last`) returned in `f`;
     * resolves with the frame to send on.
     */
    async function flowRun(f: Frame, call: AgentCall, decisions: LiveDecisions, after: string, last: Step & { kind: "call" }): Promise<Frame> {
      const live = program;
      if (live === undefined) return f;
      const failed = last.outcome === ERR;
      const looked: Looked[] = [];
      let flowAfter = after;
      let pending: { tool: string; args: JsonObject } | undefined;
      let stopped = false;

      /** What the run does with a decision made: count it, log it, and the option it takes (0 hands back). */
      const decided = (request: DecisionRequest, next: Next, started: number): number => {
        if (next.key !== null) questions += 1;
        const proposal = next.proposal;
        let why: string | undefined;
        if (proposal.action === "lookup" && !shadow) {
          why = withheld(proposal.tool, { flow, ownName, flowTools: settings.flowTools, listed });
          if (why !== undefined && !warned.has(proposal.tool)) {
            warned.add(proposal.tool);
            session.say(`the flow leaves ${proposal.tool} to the agent: ${why}`);
          }
        }
        log?.write(decisionLine(next, { after: call.id, address: request.address, ms: performance.now() - started, shadow, withheld: why }));
        if (proposal.action !== "lookup" || shadow || why !== undefined) return 0;
        const index = request.options.indexOf(proposal.tool);
        if (index <= 0) {
          session.say(`the flow chose ${proposal.tool}, which its program does not offer at ${request.site}; handing back`);
          return 0;
        }
        lookups += 1;
        pending = { tool: proposal.tool, args: proposal.arguments };
        return index;
      };
      const failedToDecide = (err: unknown): number => {
        session.say(`the flow failed, handing back: ${errorText(err)}`);
        return 0;
      };

      const decide = (request: DecisionRequest): number | Promise<number> => {
        if (stopped || looked.length >= perCall || lookups >= perSession || questions >= maxQuestions) return 0;
        session.service(CONVERSATION)?.readContext();
        const started = performance.now();
        const at = decisions.after(flowAfter);
        // Most decisions hand back before binding anything: the binder reads the session only when asked.
        let explaining: ExplainingBinder | undefined;
        const bind: BindFn = (tool) => {
          explaining ??= explainingBinderIn(flow, at.view);
          const b = explaining(tool);
          return b.ok ? { ok: true, arguments: b.args, chance: b.chance } : { ok: false, why: b.why };
        };
        const surprised = surprisedAt(decisions, at.last);
        if (surprised !== undefined) return decided(request, surprised, started);
        // Absent settings as undefined fields rather than spread in: a decision follows every call.
        const input: DecideInput = { flow, at, taskId, decider: settings.decider, threshold, bind, oracle: settings.oracle, explore: settings.explore };
        // The habit and reach decide at once, and the run goes on at once; only the arbiter waits for its model.
        if (settings.decider === "arbiter") return nextExplored(input).then((next) => decided(request, next, started), failedToDecide);
        let next: Next;
        try {
          next = nextLocal(input);
        } catch (err) {
          return failedToDecide(err);
        }
        return decided(request, next, started);
      };

      const outcome = async (): Promise<boolean | undefined> => {
        const lookup = pending;
        pending = undefined;
        if (lookup === undefined) return undefined;
        const answer = await Promise.race([
          session.request("tools/call", { arguments: lookup.args, name: ownName(lookup.tool) }, { patienceMs }),
          ended,
        ]);
        if (answer.kind === "no-answer") {
          if (answer.why === "patience") {
            session.say(`no answer to ${lookup.tool} within ${Math.round(patienceMs / 1000)} s; going on without it`);
          }
          stopped = true;
          return false;
        }
        const { text, error } = resultText(answer.response);
        looked.push({ tool: ownName(lookup.tool), arguments: lookup.args, text, error });
        flowAfter = typeof answer.response.id === "string" ? answer.response.id : String(answer.response.id);
        return !error;
      };

      const callbacks: LiveCallbacks = { decide, outcome };
      try {
        const result = await live.live(last.tool, failed, perCall, callbacks);
        log?.write(runLineText(call.id, runLine(last.tool, failed, perCall, result)));
      } catch (err) {
        session.say(`the flow failed, handing back: ${errorText(err)}`);
      }
      if (looked.length === 0) return f;
      const message = jsonOf(f);
      const bytes = withAppendix(message, looked, writtenId(f, message));
      return bytes === undefined ? f : frame("proxy", session.clock.now(), bytes);
    }

    stopIfDone();
    return followed === undefined ? { name: "flow", client, server } : { name: "flow", client, server, readsEpisode: false };
  }
}
