/**
 * A log as an Episode (docs/trace.md, "The Episode"): its calls grouped into inferred LLM turns,
 * its results, and what the host said. From a log, `task_id` is `""`, `trial` 0 and
 * `reward` 0; the domain is the header's, else `mcp`; the agent model is the header's,
 * else the client's name (from `initialize`, or a 2026-07-28 request's `_meta`), else
 * `unknown`.
 */
import type { Episode } from "./episode-types.js";
import type { LogEntry, LogHeader, McpLog } from "./log-types.js";
import type { LogSink } from "./log-parser.js";
import { streamLog, streamLogSync } from "./read-log.js";
import { EpisodeBuilder } from "./turns.js";

export function episode(log: McpLog): Episode {
  return episodeSent(log).episode;
}

/**
 * {@link episode}, and for each call id how many of its turn's calls had been answered when
 * it was sent (a decision made at a result could not have known of calls sent later).
 */
export function episodeSent(log: McpLog): { episode: Episode; sentAfter: Map<string, number> } {
  const b = new EpisodeBuilder({ sentAfter: true });
  for (const e of log.entries) b.entry(e);
  return { episode: b.finish(log.header), sentAfter: b.sentAfter };
}

/**
 * The episode of the log at `path`, read as a stream: memory follows the episode, not the
 * file. `map` may rewrite each entry first (e.g. to name its tools after their server).
 */
export async function readEpisode(path: string, map?: (e: LogEntry) => LogEntry): Promise<Episode> {
  const into = episodeSink(map);
  await streamLog(path, into.sink);
  return into.finish();
}

/**
 * {@link readEpisode} with the file read synchronously: for a batch reader of many small
 * logs, where the thread pool's round trips cost more than the reads (read-log.ts).
 */
export function readEpisodeSync(path: string, map?: (e: LogEntry) => LogEntry): Episode {
  const into = episodeSink(map);
  streamLogSync(path, into.sink);
  return into.finish();
}

function episodeSink(map?: (e: LogEntry) => LogEntry): { sink: LogSink; finish(): Episode } {
  const b = new EpisodeBuilder();
  let header: LogHeader | undefined;
  return {
    sink: { header: (h) => (header = h), entry: map ? (e) => b.entry(map(e)) : (e) => b.entry(e) },
    finish: () => b.finish(header!),
  };
}
