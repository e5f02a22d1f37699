/**
 * The confirmation judge: before a write the domain's `*.confirmed` rule covers, ask the
 * System-One model whether the customer's reply explicitly agreed to this exact change
 * (and, when asked for, whether the agent had proposed or described it). A write fails when
 * a counted answer's probability of yes is below the threshold (strictly); in `enforce`
 * mode a failing write is refused. A judge that cannot answer (no key, a cache miss under
 * `--oracle replay`, an error, the session's question budget spent) refuses nothing.
 */
import { requestKey } from "../../oracle/cache.js";
import { noul, type JsonValue, type Oracle } from "../../oracle/oracle.js";
import type { Json } from "../../trace/json.js";
import { errorText } from "../../util/error-text.js";
import { proposalCheckOn, type Flagged } from "./proposal-check.js";
import { CONFIRMED, type QuestionId, type SecondQuestion } from "./questions.js";
import { confirmRequest, type JudgedCall } from "./request.js";
import type { SeenBefore } from "./seen-so-far.js";

export type JudgeMode = "log" | "enforce";
export const JUDGE_MODES: readonly JudgeMode[] = ["log", "enforce"];

export const DEFAULT_THRESHOLD = 0.5;
export const DEFAULT_QUESTIONS = 100;
export const BUDGET_SPENT = "the session's question budget is spent";

export interface JudgeSettings {
  mode: JudgeMode;
  oracle: Oracle;
  /** The model id every request names (`TYPESAFE_DEFAULT_MODEL`, else `jev-latest`). */
  model: string;
  threshold?: number;
  /** How many questions one session may ask. */
  questions?: number;
  second?: SecondQuestion;
  /** The second answer is only logged; a write fails on the first alone. */
  secondShadow?: boolean;
  /** Says a line on stderr (the caller adds its program's prefix). */
  say: (message: string) => void;
  /** Reasons already said at start-up (the missing key), not to be said again. */
  alreadySaid?: readonly string[];
  now?: () => number;
}

/** One confirm log line: the judged call, every answer, and what came of them. */
export interface ConfirmLine {
  tool: string;
  arguments: JsonValue;
  word_list: boolean;
  enforced: boolean;
  proposal_check: Flagged[];
  second_shadow?: true;
  key?: string;
  second_key?: string;
  p_yes?: number;
  p_second?: number;
  skipped?: string;
  error?: string;
  fails: boolean;
  unknown: boolean;
  /** Milliseconds the write waited for the judge. */
  ms: number;
}

export interface Judgment {
  line: ConfirmLine;
  /** The refusal's reason when the judge refuses the write (enforce mode, a counted answer below the threshold). */
  refusal?: string;
}

/** The reason a refused write cites, after `Refused by the policy check, so … nothing changed: `. */
export function judgeRefusalReason(fails: readonly string[]): string {
  return `the customer has not explicitly agreed to this exact change (confirmation judge: ${fails.join(", ")}); describe the change and ask the customer to confirm it first`;
}

/** One session's judge: it counts the session's questions. */
export class ConfirmJudge {
  /** Questions asked so far in this session. */
  asked = 0;
  private readonly said = new Set<string>();
  private readonly threshold: number;
  private readonly budget: number;
  private readonly now: () => number;

  constructor(readonly settings: JudgeSettings) {
    this.threshold = settings.threshold ?? DEFAULT_THRESHOLD;
    this.budget = settings.questions ?? DEFAULT_QUESTIONS;
    this.now = settings.now ?? Date.now;
    for (const s of settings.alreadySaid ?? []) this.said.add(s);
  }

  /**
   * Judges `call`, made after what `seen` holds (the session before the call's turn), whose
   * word list verdict was `wordList`.
   */
  async judge(call: { tool: string; arguments: Json }, seen: SeenBefore, wordList: boolean): Promise<Judgment> {
    const started = this.now();
    const s = this.settings;
    const exchange = seen.exchange;
    const judged: JudgedCall = { tool: call.tool, arguments: call.arguments };
    const line: ConfirmLine = {
      tool: call.tool,
      arguments: judged.arguments,
      word_list: wordList,
      enforced: s.mode === "enforce",
      proposal_check: proposalCheckOn(seen.lists, exchange, call.arguments),
      fails: false,
      unknown: false,
      ms: 0,
    };
    if (s.secondShadow === true && s.second !== undefined) line.second_shadow = true;
    const asks: Array<{ id: QuestionId; first: boolean; counts: boolean }> = [{ id: CONFIRMED, first: true, counts: true }];
    if (s.second !== undefined) asks.push({ id: s.second, first: false, counts: s.secondShadow !== true });

    const fails: string[] = [];
    let unanswered = false;
    for (const q of asks) {
      const request = confirmRequest(s.model, exchange, judged, q.id);
      const key = requestKey(request);
      if (q.first) line.key = key;
      else line.second_key = key;
      if (this.asked >= this.budget) {
        line.skipped = BUDGET_SPENT;
        if (q.counts) unanswered = true;
        this.sayOnce(BUDGET_SPENT);
        break;
      }
      this.asked++;
      try {
        const p = noul(await s.oracle.ask(request), q.id);
        if (p === undefined) {
          line.error = `no yes/no answer to ${q.id}`;
          this.sayOnce(line.error);
          if (q.counts) unanswered = true;
          continue;
        }
        const field = q.first ? "p_yes" : "p_second";
        line[field] = p;
        if (q.counts && p < this.threshold) fails.push(`${field} ${p.toFixed(2)}`);
      } catch (err) {
        line.error = errorText(err);
        this.sayOnce(line.error);
        if (q.counts) unanswered = true;
      }
    }
    line.fails = fails.length > 0;
    line.unknown = fails.length === 0 && unanswered;
    line.ms = Math.max(0, Math.round(this.now() - started));
    return s.mode === "enforce" && line.fails ? { line, refusal: judgeRefusalReason(fails) } : { line };
  }

  /** Each way of not answering is said once a session (cache keys aside, so misses count as one). */
  private sayOnce(reason: string): void {
    const kind = reason.replace(/[0-9a-f]{64}/g, "<key>");
    if (this.said.has(kind) || this.said.has(reason)) return;
    this.said.add(kind);
    this.settings.say(`the confirmation judge could not answer: ${reason}`);
  }
}
