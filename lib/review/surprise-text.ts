/** A surprise gate in words, as `flow-show`, `flow-diff` and `learn` say it (one wording, so they agree). */
import { fixed2, rustDisplay } from "../flow/decide/rust-format.js";
import type { SurpriseGate } from "../flow/ir/flow-types.js";

/** `hands back for the rest of a session once 5 of the agent's steps in a row average more than 2.50 nats of surprise…` */
export function describeGate(gate: SurpriseGate): string {
  const quantile =
    gate.quantile === undefined ? "" : `, the ${rustDisplay(gate.quantile)} quantile of held-out training sessions' most surprising windows`;
  return `hands back for the rest of a session once ${gate.window} of the agent's steps in a row average more than ${fixed2(gate.threshold)} nats of surprise${quantile}`;
}
