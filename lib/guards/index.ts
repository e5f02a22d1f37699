/**
 * Policy guards (docs/guards.md): τ²-bench's retail and airline policies as rules a proxy
 * checks before a write reaches the server, on facts kept one event at a time.
 *
 *     const g = guardsFor("retail");          // throws GuardsSetupError with the exact message
 *     g.facts.addUser(text);                  // or g.facts.apply(episodeEvent)
 *     g.facts.addCall(call); g.facts.addResult(result);
 *     const d = g.check({ name, arguments }); // before the call is sent (and added)
 *     if (d.refused) answer(refusalResponse(id, name, d.reason!));
 */
export { fail, pass, reasonOf, unknown, type Verdict, type VerdictKind } from "./verdict.js";
export { Facts, ITEM_CHANGES, isWriteTool, type CallFact, type FactView, type ResultFact } from "./facts.js";
export { parseContent } from "./content.js";
export { CONFIRMING, NOTHING_SAID, NOT_CONFIRMED, confirmation, wordsOf } from "./word-list.js";
export { AIRLINE_NOW, AIRLINE_TODAY, withinADay } from "./policy-time.js";
export type { GuardedCall, Rule } from "./rule.js";
export { ORDER_WRITES, RETAIL_RULES, RETAIL_WRITES } from "./rules/retail.js";
export { AIRLINE_RULES, AIRLINE_WRITES, RESERVATION_WRITES } from "./rules/airline.js";
export {
  decision,
  refusalNotice,
  refusalReason,
  refusalResponse,
  refusalResult,
  refusalText,
  verdicts,
  type Decision,
  type RuleVerdict,
} from "./check.js";
export { Guards } from "./guards.js";
export { GUARD_DOMAINS, GuardsSetupError, NEEDS_DOMAIN, guardsFor, guardsSetupError, noGuardsFor, rulesFor } from "./domains.js";
export { Auditor, audit, type Audit, type RuleAudit } from "./audit.js";
export { AUDIT_TITLE, auditJson, auditMarkdown } from "./audit-report.js";
