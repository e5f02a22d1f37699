/**
 * An episode without the proxy's own lookups. A session served with a flow holds the
 * flow's lookups as calls with `stretto-` ids; left in, a flow learns from what an earlier
 * flow did as if the agent had done it. Taken out, with their results, only the agent's
 * own calls remain; a turn that held nothing else goes too (it was no LLM turn).
 */
import type { Episode, EpisodeEvent } from "../trace/index.js";

/** The id prefix of the calls the proxy makes itself. */
export const PROXY_CALL_PREFIX = "stretto-";

export function agentOnly(ep: Episode): Episode {
  const proxyCalls = new Set<string>();
  const events: EpisodeEvent[] = [];
  for (const e of ep.events) {
    if (e.kind === "assistant") {
      const own = e.calls.filter((c) => {
        const proxy = c.id.startsWith(PROXY_CALL_PREFIX);
        if (proxy) proxyCalls.add(c.id);
        return !proxy;
      });
      if (own.length === e.calls.length) events.push(e);
      else if (own.length > 0) events.push({ ...e, calls: own });
    } else if (e.kind === "tool_result") {
      if (!proxyCalls.has(e.call_id)) events.push(e);
    } else events.push(e);
  }
  return { ...ep, events };
}
