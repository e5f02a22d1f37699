/**
 * The proxy's arguments in the host's configuration, in a fixed order: recording, the flow,
 * the policy, (the listening address,) then the server.
 */
import type { Setup } from "./setup.js";

export function recordArgs(s: Setup): string[] {
  return ["--record", s.record, "--domain", s.domain];
}

export function flowArgs(s: Setup): string[] {
  const f = s.flow;
  if (f === undefined) return [];
  return ["--flow", f.path, ...(f.decider === undefined ? [] : ["--flow-decider", f.decider]), ...(f.shadow ? ["--flow-shadow"] : [])];
}

/** What `stretto init` passes on to the proxy unchanged, so the next steps keep it too. */
export function policyArgs(s: Setup): string[] {
  return [
    ...(s.retainDays === undefined ? [] : ["--retain-days", String(s.retainDays)]),
    ...(s.guards ? ["--guards"] : []),
    ...(s.judge === undefined ? [] : ["--confirm-judge", s.judge.mode, "--context", s.judge.context]),
    ...(s.commit ? ["--commit"] : []),
  ];
}

export function listenArgs(s: Setup): string[] {
  const l = s.listen;
  if (l === undefined) return [];
  return ["--listen", l.addr, ...(l.tokenFile === undefined ? [] : ["--listen-token-file", l.tokenFile])];
}

export function targetArgs(s: Setup): string[] {
  const t = s.target;
  if (t.kind === "command") return ["--", ...t.words];
  return ["--upstream", t.url, ...t.headers.flatMap((h) => ["--upstream-header", `${h.name}=${h.variable}`])];
}

/** The arguments of a proxy a host starts over stdio. */
export function stdioArgs(s: Setup): string[] {
  return [...recordArgs(s), ...flowArgs(s), ...policyArgs(s), ...targetArgs(s)];
}

/** The arguments of the one proxy that listens for hosts (`--listen`). */
export function listeningArgs(s: Setup): string[] {
  return [...recordArgs(s), ...flowArgs(s), ...policyArgs(s), ...listenArgs(s), ...targetArgs(s)];
}
