/**
 * Redaction of logs held in memory: a census of every log, then each log rewritten. The
 * folder redaction (redact-folder.ts) streams the same two passes from disk.
 */
import type { McpLog } from "../trace/log-types.js";
import { Census } from "./census.js";
import { EntryWalk } from "./entry-walk.js";
import type { RedactOptions } from "./options.js";
import { Pseudonyms } from "./pseudonyms.js";

/** Counts what sessions share: call `session` for each log, then `walk` each of its entries. */
export function newCensus(options: RedactOptions): { census: Census; session(id: string): EntryWalk } {
  const census = new Census(options.hashFields);
  return {
    census,
    session(id) {
      census.enterSession(id);
      return new EntryWalk(census);
    },
  };
}

/** The pseudonyms the census gives, and a walk that rewrites one log with them. */
export function rewriter(census: Census, options: RedactOptions): { pseudonyms: Pseudonyms; log(): EntryWalk } {
  const pseudonyms = new Pseudonyms(census, options.salt, options.keepShared);
  return { pseudonyms, log: () => new EntryWalk(pseudonyms) };
}

/** `logs` pseudonymized: each value fewer than `keepShared` of them share (or a named field holds) hashed. */
export function redactLogs(logs: readonly McpLog[], options: RedactOptions): McpLog[] {
  const counting = newCensus(options);
  for (const log of logs) {
    const walk = counting.session(log.header.session);
    for (const e of log.entries) walk.entry(e);
  }
  const rewrite = rewriter(counting.census, options);
  return logs.map((log) => {
    const walk = rewrite.log();
    return { header: { ...log.header }, entries: log.entries.map((e) => walk.entry(e)) };
  });
}
