/**
 * `stretto stage`: learns the staged flow beside a committed one from every session so far,
 * and compares the two on the sessions as they arrived. Each new session is scored first, as
 * it came, by the committed flow and by the staged flow as it stood before learning from it
 * (as served: its lookups, and whether the agent made each in a later LLM turn), then the
 * staged flow learns again from every session. So the comparison is always on sessions the
 * staged flow had not seen.
 */
import { existsSync } from "node:fs";
import type { DeciderName } from "../flow/decide/index.js";
import type { Flow } from "../flow/ir/flow-types.js";
import { flowText } from "../flow/ir/index.js";
import type { Oracle } from "../oracle/oracle.js";
import { emptyScoring, scoreSession, type SentSession } from "../promote/index.js";
import { diffFlows, servedDecider } from "../review/index.js";
import { StageRefusal, writeWhole, type StagePaths } from "./files.js";
import { readState, writeState, type Comparison, type Counts, type LedgerEntry, type Scored } from "./state.js";
import { flowOf, readText } from "./versions.js";

export interface StageSettings {
  paths: StagePaths;
  /** `--domain`: needed when there is no committed flow yet. */
  domain?: string;
  /** Every session of the domain, in order (read once). */
  sessions: (domain: string) => AsyncIterable<SentSession>;
  /** Learns the staged flow from every session (as `learn --habit-only` would), its gate at `quantile` when asked. */
  relearn: (domain: string, gateQuantile?: { quantile: number; window: number }) => Promise<Flow>;
  /** The decider each flow is scored with; each flow's served one when absent. */
  decider?: DeciderName;
  oracle?: Oracle;
  /** How many of the latest sessions the comparison takes (50). */
  window: number;
  /** The threshold the flows are scored and reviewed at (0.3). */
  threshold: number;
  /** The most lookups after one call (8). */
  perCall: number;
}

export interface StageResult {
  comparison: Comparison;
  /** Sessions in the stream. */
  total: number;
  stagedFlow: Flow;
}

function loadIf(path: string): { flow: Flow; text: string } | undefined {
  if (!existsSync(path)) return undefined;
  const text = readText(path);
  return { flow: flowOf(path, text), text };
}

const zero = (): Counts => ({ decisions: 0, lookups: 0, used: 0, served: 0 });

function add(into: Counts, c: Counts): void {
  into.decisions += c.decisions;
  into.lookups += c.lookups;
  into.used += c.used;
  into.served += c.served;
}

/** One session scored by `flow` as served. */
async function scoreWith(flow: Flow, session: SentSession, s: StageSettings): Promise<Scored> {
  const scoring = emptyScoring();
  const decider = s.decider ?? servedDecider(flow);
  await scoreSession(session, { flow, decider, threshold: s.threshold, perCall: s.perCall, ...(s.oracle === undefined ? {} : { oracle: s.oracle }) }, scoring);
  const sites: Record<string, Counts> = {};
  for (const [site, t] of scoring.sites) sites[site] = { decisions: t.decisions, lookups: t.lookups, used: t.used, served: t.served };
  return { sites, ...(scoring.unanswered === 0 ? {} : { unanswered: scoring.unanswered }) };
}

/** What the staged flow keeps of the committed one: its arbiter, promotion, thresholds and a hand-set gate. */
function carry(staged: Flow, committed: Flow): { flow: Flow; carried: string[] } {
  const flow: Flow = { ...staged };
  const carried: string[] = [];
  if (committed.folds.length > 0) {
    Object.assign(flow, { folds: committed.folds, model: committed.model, predicates: committed.predicates, weighed: committed.weighed });
    carried.push("its arbiter");
  }
  if (committed.promoted !== undefined) {
    flow.promoted = committed.promoted;
    const sites = [...committed.promoted.sites.values()];
    carried.push(`its promotion (it acts at ${sites.filter((x) => x.promoted).length} of ${sites.length} sites)`);
  }
  if (committed.thresholds.size > 0) {
    flow.thresholds = committed.thresholds;
    carried.push(`its thresholds at ${committed.thresholds.size} sites`);
  }
  if (committed.surprise !== undefined && committed.surprise.quantile === undefined) {
    flow.surprise = committed.surprise;
    carried.push("its surprise gate, set by hand");
  }
  return { flow, carried };
}

export async function stage(s: StageSettings): Promise<StageResult> {
  const { paths } = s;
  const committed = loadIf(paths.committed);
  const previous = loadIf(paths.staged);
  let domain: string;
  if (committed !== undefined) {
    domain = committed.flow.manifest.domain;
    if (s.domain !== undefined && s.domain !== domain) throw new StageRefusal(`the committed flow is for ${domain}, not ${s.domain}`);
  } else if (s.domain !== undefined) {
    domain = s.domain;
  } else {
    throw new StageRefusal(`there is no committed flow at ${paths.committed} yet: name the domain with --domain`);
  }
  const state = readState(paths.state, domain);
  const known = new Set(state.sessions);
  let total = 0;
  let fresh = 0;
  for await (const session of s.sessions(domain)) {
    total += 1;
    const id = session.episode.id;
    if (known.has(id)) continue;
    const entry: LedgerEntry = { session: id };
    if (committed !== undefined) entry.committed = await scoreWith(committed.flow, session, s);
    if (previous !== undefined) entry.staged = await scoreWith(previous.flow, session, s);
    state.ledger.push(entry);
    state.sessions.push(id);
    known.add(id);
    fresh += 1;
  }
  if (total === 0) throw new StageRefusal(`there are no ${domain} sessions to learn from`);

  let stagedFlow: Flow;
  let carried: string[] = [];
  if (fresh > 0 || previous === undefined) {
    const gate = committed?.flow.surprise;
    const learned = await s.relearn(domain, gate?.quantile === undefined ? undefined : { quantile: gate.quantile, window: gate.window });
    ({ flow: stagedFlow, carried } = committed === undefined ? { flow: learned, carried: [] } : carry(learned, committed.flow));
    if (gate?.quantile !== undefined) carried.push(`its surprise gate, learned again at the ${gate.quantile} quantile`);
    writeWhole(paths.staged, flowText(stagedFlow));
  } else {
    stagedFlow = previous.flow;
    carried = committed === undefined ? [] : carry(stagedFlow, committed.flow).carried;
  }

  const comparison = compare(state.ledger, s.window, committed !== undefined);
  Object.assign(comparison, { domain, learned_unix_ms: stagedFlow.provenance.compiledUnixMs, sessions: state.sessions.length, new: fresh, carried });
  if (committed !== undefined) {
    const diff = diffFlows(committed.flow, stagedFlow, { tolerance: 0.05, threshold: s.threshold });
    comparison.changes = diff.sections.map((x) => ({ title: x.title, changes: x.changes }));
    comparison.needs_review = diff.needsReview;
  }
  state.last = comparison;
  writeState(paths.state, state);
  return { comparison, total, stagedFlow };
}

/** The comparison over the last `window` ledger entries scored by the staged flow (and by the committed one, when there is one). */
export function compare(ledger: readonly LedgerEntry[], window: number, withCommitted: boolean): Comparison {
  const eligible = ledger.filter((e) => e.staged !== undefined && (!withCommitted || e.committed !== undefined));
  const last = eligible.slice(Math.max(0, eligible.length - window));
  const sites: Comparison["sites"] = {};
  const total: Comparison["total"] = { staged: zero(), ...(withCommitted ? { committed: zero() } : {}) };
  const unanswered: [number, number] = [0, 0];
  for (const e of last) {
    for (const [site, c] of Object.entries(e.staged!.sites)) {
      const row = (sites[site] ??= { staged: zero(), ...(withCommitted ? { committed: zero() } : {}) });
      add(row.staged, c);
      add(total.staged, c);
    }
    unanswered[1] += e.staged!.unanswered ?? 0;
    if (!withCommitted) continue;
    for (const [site, c] of Object.entries(e.committed!.sites)) {
      const row = (sites[site] ??= { staged: zero(), committed: zero() });
      add((row.committed ??= zero()), c);
      add(total.committed!, c);
    }
    unanswered[0] += e.committed!.unanswered ?? 0;
  }
  return { domain: "", learned_unix_ms: 0, sessions: 0, new: 0, committed: withCommitted, compared: last.length, sites, total, unanswered, changes: [], needs_review: [], carried: [] };
}
