/**
 * A τ²-bench results file (its `simulations`, or the "dir" format) read as Episodes: each simulation's
 * messages in order, a user message as a user event, an assistant message as a turn (its
 * tool calls, or its text), a tool message as the result of the call with its id. Files
 * of the "dir" format (voice runs, `ticks` instead of `messages`) give episodes without
 * events.
 */
import { readFile } from "node:fs/promises";
import { field, isObject, type Json } from "../../trace/json.js";
import type { Episode, EpisodeEvent, ToolCall } from "../../trace/episode-types.js";
import { LogReadError } from "../../trace/index.js";
import { osErrorText } from "../../util/os-errors.js";
import { errorText } from "../../util/error-text.js";

export interface Tau2Results {
  /** `info.environment_info.domain_name`, or `""`. */
  domain: string;
  episodes: Episode[];
}

export async function readTau2Results(path: string): Promise<Tau2Results> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    throw new LogReadError(`reading ${path}: ${osErrorText(e)}`);
  }
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch (e) {
    throw new LogReadError(`${path} is not a τ²-bench results file: ${errorText(e)}`);
  }
  if (!isObject(json) || !Array.isArray(field(json, "simulations"))) {
    throw new LogReadError(`${path} is not a τ²-bench results file: it has no simulations`);
  }
  return tau2Episodes(json);
}

export function tau2Episodes(results: Json): Tau2Results {
  const info = field(results, "info");
  const domain = str(field(field(info, "environment_info"), "domain_name")) ?? "";
  const model = str(field(field(info, "agent_info"), "llm")) ?? "unknown";
  const sims = field(results, "simulations");
  const episodes = (Array.isArray(sims) ? sims : []).map((s) => simulation(s, domain, model));
  return { domain, episodes };
}

function simulation(s: Json, domain: string, model: string): Episode {
  const taskId = field(s, "task_id");
  const trial = field(s, "trial");
  const reward = field(field(s, "reward_info"), "reward");
  return {
    id: str(field(s, "id")) ?? "",
    task_id: typeof taskId === "string" ? taskId : taskId === undefined || taskId === null ? "" : JSON.stringify(taskId),
    trial: typeof trial === "number" ? trial : 0,
    domain,
    agent_model: model,
    reward: typeof reward === "number" ? reward : 0,
    events: events(field(s, "messages")),
  };
}

function events(messages: Json | undefined): EpisodeEvent[] {
  const out: EpisodeEvent[] = [];
  const names = new Map<string, string>();
  for (const m of Array.isArray(messages) ? messages : []) {
    const role = field(m, "role");
    const content = str(field(m, "content"));
    if (role === "user") {
      if (content !== undefined) out.push({ kind: "user", text: content });
    } else if (role === "assistant") {
      const calls: ToolCall[] = [];
      const toolCalls = field(m, "tool_calls");
      for (const c of Array.isArray(toolCalls) ? toolCalls : []) {
        const id = str(field(c, "id")) ?? "";
        const name = str(field(c, "name")) ?? "";
        names.set(id, name);
        calls.push({ id, name, arguments: field(c, "arguments") ?? {} });
      }
      if (calls.length > 0 || content !== undefined) out.push({ kind: "assistant", text: content ?? null, calls, usage: null });
    } else if (role === "tool") {
      const id = str(field(m, "id")) ?? "";
      out.push({ kind: "tool_result", call_id: id, name: names.get(id) ?? "", error: field(m, "error") === true, content: content ?? "" });
    }
  }
  return out;
}

function str(v: Json | undefined): string | undefined {
  return typeof v === "string" ? v : undefined;
}
