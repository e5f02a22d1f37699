import { CALL_CHECK, CONVERSATION, JUDGED_CALL_CHECK, DEFAULT_PATIENCE_MS, type Frame, frame, idKeyOfValue, jsonOf, keepMessages, mayHold, messageLine, messagesOf, type Plugin, type PluginContext, type PluginFactory, responseOf, toolAnswer, type WireMessage } from "../index.js";
import { concat, EMPTY, from, mergeMap, type Observable, of } from "../rx.js";
import { answerText, callLabel, innerCalls } from "./commit-call.js";
import { COMMIT_INSTRUCTIONS, COMMIT_TOOL, COMMIT_TOOL_NAME, COMMIT_USAGE } from "./listing.js";

export interface CommitOptions {
  patienceMs?: number;
}

/**
 * `--commit`: lists `stretto_commit` after the server's tools (on the last page only),
 * tells the agent about it in `initialize`'s instructions, and runs a commit's calls in
 * order as the proxy's own requests, each through the guards first, stopping at the first
 * that is refused or fails. A commit runs beside the traffic: later lines do not wait.
 */
export function commitPlugin(options: CommitOptions = {}): PluginFactory {
  return (session): Plugin => {
    const listings = new Set<string>();
    const initializes = new Set<string>();
    const patienceMs = options.patienceMs ?? DEFAULT_PATIENCE_MS;

    const client = (source: Observable<Frame>) =>
      source.pipe(
        mergeMap((f) => {
          if (!mayHold(f, COMMIT_TOOL_NAME) && !mayHold(f, "tools/list") && !mayHold(f, "initialize")) return of(f);
          const messages = messagesOf(f);
          if (!messages) return of(f);
          const commits: WireMessage[] = [];
          for (const m of messages) {
            if (m.idText === undefined) continue;
            const id = m.value["id"] as string | number;
            if (m.method === "tools/list") listings.add(idKeyOfValue(id));
            if (m.method === "initialize") initializes.add(idKeyOfValue(id));
            const params = m.value["params"] as { name?: unknown } | undefined;
            if (m.method === "tools/call" && params?.name === COMMIT_TOOL_NAME) commits.push(m);
          }
          if (commits.length === 0) return of(f);
          // A commit's answer comes later, from the proxy; the rest of a batch goes on now.
          const runs = Promise.all(commits.map((m) => runCommit(session, m, patienceMs)));
          return concat(from(keepMessages(f, messages, (m) => !commits.includes(m))), from(runs).pipe(mergeMap(() => EMPTY)));
        }),
      );

    const server = (source: Observable<Frame>) =>
      source.pipe(
        mergeMap((f) => {
          const res = responseOf(f);
          if (!res) return of(f);
          const key = idKeyOfValue(res.id);
          if (listings.delete(key)) return of(withCommitListed(f));
          if (initializes.delete(key)) return of(withCommitInstructions(f));
          return of(f);
        }),
      );

    return { name: "commit", client, server, readsEpisode: false };
  };
}

/** The answer with `stretto_commit` appended, if it is the listing's last page. */
function withCommitListed(f: Frame): Frame {
  const msg = jsonOf(f) as { result?: { tools?: unknown[]; nextCursor?: unknown } };
  const result = msg.result;
  if (!result || !Array.isArray(result.tools) || (result.nextCursor !== undefined && result.nextCursor !== null)) return f;
  result.tools = [...result.tools, COMMIT_TOOL];
  return frame("proxy", f.tMs, messageLine(msg, messagesOf(f)?.[0]?.idText));
}

function withCommitInstructions(f: Frame): Frame {
  const msg = jsonOf(f) as { result?: { instructions?: unknown } };
  const result = msg.result;
  if (!result || typeof result !== "object") return f;
  const own = typeof result.instructions === "string" && result.instructions !== "" ? `${result.instructions}\n\n` : "";
  result.instructions = own + COMMIT_INSTRUCTIONS;
  return frame("proxy", f.tMs, messageLine(msg, messagesOf(f)?.[0]?.idText));
}

async function runCommit(session: PluginContext, request: WireMessage, patienceMs: number): Promise<void> {
  const calls = innerCalls((request.value["params"] as { arguments?: unknown }).arguments);
  if (!calls) {
    session.toClient(toolAnswer(request, COMMIT_USAGE, true));
    return;
  }
  const parts: string[] = [];
  let failed = false;
  let made = 0;
  while (made < calls.length && !failed) {
    const call = calls[made++]!;
    const label = callLabel(call);
    session.service(CONVERSATION)?.readContext();
    // With the confirmation judge, its check (which waits for the judge) stands in for the guards' own.
    const judged = session.service(JUDGED_CALL_CHECK);
    const verdict = judged !== undefined ? await judged(call) : session.service(CALL_CHECK)?.(call);
    if (verdict?.refused) {
      parts.push(`${label} was refused by the policy check: ${verdict.reason ?? ""}`);
      failed = true;
      continue;
    }
    const answer = await session.request("tools/call", { name: call.name, arguments: call.arguments }, { patienceMs });
    if (answer.kind === "no-answer") {
      if (answer.why === "patience") {
        session.say(`no answer to ${call.name} within ${Math.round(patienceMs / 1000)} s; going on without it`);
      }
      parts.push(`${label} got no answer from the server`);
      failed = true;
      continue;
    }
    const { text, failed: callFailed } = answerText(answer.response);
    parts.push(callFailed ? `${label} (error):\n${text}` : `${label}:\n${text}`);
    failed = callFailed;
  }
  for (const rest of calls.slice(made)) parts.push(`${callLabel(rest)} was not run`);
  session.toClient(toolAnswer(request, parts.join("\n\n"), failed));
}
