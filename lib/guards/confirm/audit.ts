/**
 * The judge against recorded episodes (`stretto confirm`): every write a domain's
 * `*.confirmed` rule covers, judged on the exchange before its turn, built exactly as the
 * proxy builds it (so the two share cached answers), and counted by whether the tool
 * accepted it and whether the episode succeeded, beside the word list's verdict.
 *
 * Writes are collected one episode at a time, their questions deduplicated by cache key and
 * asked once; the audit is then made from the answers.
 */
import { requestKey } from "../../oracle/cache.js";
import { noul, type Oracle, type OracleRequest } from "../../oracle/oracle.js";
import type { Episode } from "../../trace/episode-types.js";
import { succeeded } from "../../trace/episode-queries.js";
import { compareCodePoints } from "../../trace/json.js";
import { errorText } from "../../util/error-text.js";
import { Facts } from "../facts.js";
import type { Rule } from "../rule.js";
import { confirmation } from "../word-list.js";
import { SeenSoFar } from "./seen-so-far.js";
import { CONFIRMED, type SecondQuestion } from "./questions.js";
import { confirmRequest } from "./request.js";

/** One judged write, as `--json` writes it. */
export interface JudgedWrite {
  domain: string;
  task_id: string;
  episode: string;
  tool: string;
  success: boolean;
  /** The tool returned an error. */
  refused: boolean;
  /** The word list found a yes. */
  word_list: boolean;
  p_yes?: number;
  p_second?: number;
  /** The customer's reply the judge read (its first 600 characters are what was sent). */
  customer: string;
  key: string;
  second_key?: string;
}

/** writes, word list fails, judge fails, two questions fail, both (word list and judge) fail, unanswered. */
export interface GroupCounts {
  writes: number;
  word_list: number;
  judge: number;
  two_questions: number;
  both: number;
  unanswered: number;
}

export interface ConfirmAudit {
  domain: string;
  /** Episodes read: successful, failed. */
  episodes: [number, number];
  accepted_successful: GroupCounts;
  accepted_failed: GroupCounts;
  refused_by_tool: GroupCounts;
  /** Episodes with an accepted write the judge fails: successful, failed. */
  episodes_judge_fails: [number, number];
  /** Up to `--examples` writes of each kind (accepted writes only). */
  judge_only: JudgedWrite[];
  word_list_only: JudgedWrite[];
  second_only: JudgedWrite[];
}

/** Collects the writes of episodes and the questions they need. */
export class ConfirmCollector {
  readonly writes: JudgedWrite[] = [];
  /** Each distinct question, by its cache key. */
  readonly questions = new Map<string, OracleRequest>();
  /** Episodes read by domain: successful, failed. */
  readonly episodes = new Map<string, [number, number]>();
  private readonly confirmedTools = new Map<string, Set<string>>();

  constructor(
    private readonly rulesOf: (domain: string) => readonly Rule[] | undefined,
    private readonly model: string,
    private readonly second?: SecondQuestion,
    private readonly toolName: (name: string) => string = (n) => n,
  ) {}

  /** Adds the writes of `ep`, judged as `domain`'s; false when that domain has no `*.confirmed` rule. */
  add(ep: Episode, domain: string): boolean {
    const tools = this.toolsOf(domain);
    if (tools === undefined) return false;
    const counts = this.episodes.get(domain) ?? [0, 0];
    this.episodes.set(domain, counts);
    const success = succeeded(ep);
    counts[success ? 0 : 1]++;
    const toolError = new Map<string, boolean>();
    for (const e of ep.events) if (e.kind === "tool_result") toolError.set(e.call_id, e.error);
    const facts = new Facts();
    const seen = new SeenSoFar();
    for (const e of ep.events) {
      if (e.kind === "assistant") {
        // What came before the call's turn: text in the turn itself does not count for its calls.
        const exchange = seen.before(undefined).exchange;
        for (const c of e.calls) {
          const tool = this.toolName(c.name);
          if (!tools.has(tool)) continue;
          const first = confirmRequest(this.model, exchange, { tool, arguments: c.arguments }, CONFIRMED);
          const key = requestKey(first);
          this.questions.set(key, first);
          const write: JudgedWrite = {
            domain,
            task_id: ep.task_id,
            episode: ep.id,
            tool,
            success,
            refused: toolError.get(c.id) ?? false,
            word_list: confirmation(facts.lastSaid()).verdict === "pass",
            customer: exchange.customer,
            key,
          };
          if (this.second !== undefined) {
            const second = confirmRequest(this.model, exchange, { tool, arguments: c.arguments }, this.second);
            write.second_key = requestKey(second);
            this.questions.set(write.second_key, second);
          }
          this.writes.push(write);
        }
      }
      facts.apply(e.kind === "assistant" ? { ...e, calls: e.calls.map((c) => ({ ...c, name: this.toolName(c.name) })) } : e);
      seen.apply(e);
    }
    return true;
  }

  private toolsOf(domain: string): Set<string> | undefined {
    let tools = this.confirmedTools.get(domain);
    if (tools === undefined) {
      const rules = this.rulesOf(domain)?.filter((r) => r.id.endsWith(".confirmed"));
      if (rules === undefined || rules.length === 0) return undefined;
      tools = new Set(rules.flatMap((r) => r.tools));
      this.confirmedTools.set(domain, tools);
    }
    return tools;
  }
}

/** What asking gave: P(yes) by key, and the reasons questions went unanswered (distinct, with counts). */
export interface Answers {
  p: Map<string, number>;
  unanswered: Map<string, number>;
}

/**
 * Asks every question (a few at a time), reporting `done` of `total` as answers come; a
 * question that cannot be answered is counted by its reason (cache keys aside) and left out.
 */
export async function askAll(oracle: Oracle, questions: ReadonlyMap<string, OracleRequest>, onProgress: (done: number, total: number) => void, concurrency = 4): Promise<Answers> {
  const out: Answers = { p: new Map(), unanswered: new Map() };
  const entries = [...questions.entries()];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < entries.length) {
      const [key, request] = entries[next++]!;
      const id = Object.keys(request.questions)[0]!;
      try {
        const p = noul(await oracle.ask(request), id);
        if (p === undefined) count(out, `no yes/no answer to ${id}`);
        else out.p.set(key, p);
      } catch (err) {
        count(out, errorText(err).replace(/[0-9a-f]{64}/g, "<key>"));
      }
      onProgress(++done, entries.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
  return out;
}

function count(a: Answers, reason: string): void {
  a.unanswered.set(reason, (a.unanswered.get(reason) ?? 0) + 1);
}

const emptyGroup = (): GroupCounts => ({ writes: 0, word_list: 0, judge: 0, two_questions: 0, both: 0, unanswered: 0 });

/** The audits by domain (in code point order), with the answers filled into `writes`. */
export function confirmAudits(collector: ConfirmCollector, answers: Answers, threshold: number, examples: number): ConfirmAudit[] {
  const audits = new Map<string, ConfirmAudit>();
  for (const [domain, episodes] of collector.episodes) {
    audits.set(domain, {
      domain,
      episodes: [...episodes],
      accepted_successful: emptyGroup(),
      accepted_failed: emptyGroup(),
      refused_by_tool: emptyGroup(),
      episodes_judge_fails: [0, 0],
      judge_only: [],
      word_list_only: [],
      second_only: [],
    });
  }
  const judgeFailed = new Set<string>();
  for (const w of collector.writes) {
    const pYes = answers.p.get(w.key);
    if (pYes !== undefined) w.p_yes = pYes;
    const pSecond = w.second_key === undefined ? undefined : answers.p.get(w.second_key);
    if (pSecond !== undefined) w.p_second = pSecond;
    const a = audits.get(w.domain)!;
    const g = w.refused ? a.refused_by_tool : w.success ? a.accepted_successful : a.accepted_failed;
    const judge = pYes !== undefined && pYes < threshold;
    const second = pSecond !== undefined && pSecond < threshold;
    g.writes++;
    if (!w.word_list) g.word_list++;
    if (judge) g.judge++;
    if (judge || second) g.two_questions++;
    if (judge && !w.word_list) g.both++;
    if (pYes === undefined) g.unanswered++;
    if (w.refused) continue;
    if (judge) judgeFailed.add(`${w.domain}\u0000${w.episode}\u0000${w.success ? 1 : 0}`);
    if (judge && w.word_list && a.judge_only.length < examples) a.judge_only.push(w);
    if (!judge && pYes !== undefined && !w.word_list && a.word_list_only.length < examples) a.word_list_only.push(w);
    if (second && !judge && pYes !== undefined && a.second_only.length < examples) a.second_only.push(w);
  }
  for (const k of judgeFailed) {
    const [domain, , ok] = k.split("\u0000");
    audits.get(domain!)!.episodes_judge_fails[ok === "1" ? 0 : 1]++;
  }
  return [...audits.values()].sort((a, b) => compareCodePoints(a.domain, b.domain));
}
