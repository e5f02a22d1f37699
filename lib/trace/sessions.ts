/**
 * Which logs make one session. Logs are one host session's when their headers name
 * the same `host_session`, their servers have names, and they ran at overlapping times,
 * directly or through each other (a host's process id is used again once it has ended).
 * A run in which two servers of one name ran at once was not one agent's (a harness
 * running several sessions from one process, say): its logs stay apart.
 *
 * Grouping needs only a summary of each log, so a folder can be planned without holding
 * its logs in memory.
 */
import { compareCodePoints } from "./json.js";
import type { LogHeader, McpLog } from "./log-types.js";
import { serverName } from "./server-name.js";

export interface LogSummary {
  header: LogHeader;
  /** The last entry's `t_ms` (0 for a log without entries). */
  lastTMs: number;
  /** See {@link serverName}. */
  serverName: string | undefined;
}

export function summarize(log: McpLog): LogSummary {
  const last = log.entries[log.entries.length - 1];
  return { header: log.header, lastTMs: last ? last.t_ms : 0, serverName: serverName(log) };
}

/** When the proxy read a log's last line, in ms since the Unix epoch. */
export function endedUnixMs(s: LogSummary): number {
  return s.header.started_unix_ms + s.lastTMs;
}

/**
 * The sessions the logs make up, as indices into `logs`, ordered by their first log: a
 * host session's logs together (in the order they started), every other log alone. Also
 * the host sessions kept apart.
 */
export function groupSessions(logs: readonly LogSummary[]): { groups: number[][]; apart: string[] } {
  const groups: number[][] = [];
  const hosts = new Map<string, number[]>();
  logs.forEach((log, i) => {
    const host = log.header.host_session;
    if (host !== undefined && log.serverName !== undefined) {
      const members = hosts.get(host);
      if (members) members.push(i);
      else hosts.set(host, [i]);
    } else groups.push([i]);
  });
  const start = (i: number): number => logs[i]!.header.started_unix_ms;
  const stop = (i: number): number => endedUnixMs(logs[i]!);
  const atOnce = (i: number, j: number): boolean => start(j) <= stop(i) && start(i) <= stop(j);
  const apart: string[] = [];
  for (const host of [...hosts.keys()].sort(compareCodePoints)) {
    // A stable sort keeps logs that started together in their given order.
    const members = hosts.get(host)!.sort((a, b) => start(a) - start(b));
    const runs: number[][] = [];
    let end = 0;
    for (const i of members) {
      const run = runs[runs.length - 1];
      if (run && start(i) <= end) run.push(i);
      else runs.push([i]);
      end = Math.max(end, stop(i));
    }
    for (const run of runs) {
      const clash = run.some((i, k) =>
        run.slice(k + 1).some((j) => logs[i]!.serverName === logs[j]!.serverName && atOnce(i, j)),
      );
      if (!clash) groups.push(run);
      else {
        if (!apart.includes(host)) apart.push(host);
        for (const i of run) groups.push([i]);
      }
    }
  }
  const first = (g: number[]): number => g.reduce((m, i) => Math.min(m, i), Infinity);
  groups.sort((a, b) => first(a) - first(b));
  return { groups, apart };
}
