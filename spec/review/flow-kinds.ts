/** Flows of each kind, made from the published one: with reach counts, and with an arbiter. */
import { edited, type FlowJson } from "./review-helpers.js";

type Fold = FlowJson["folds"][number];

export const P1: FlowJson["predicates"][number] = { id: "p1", favors: "any_lookup", question: "Look it up?", yes: "Yes.", no: "No." };

/** The habit flow with reach counts (a copy of its habit's back-off model), served with `reach`. */
export function withReach(flow: FlowJson): FlowJson {
  return edited(flow, (f) => (f.reach = structuredClone(f.habit.base)), false);
}

/** A fit of the arbiter: eight weights (four fixed, one per weighed predicate, the record) and its rates. */
export function fold(first = 1): Fold {
  return { weights: [first, 0.5, 0.25, -1, 2, 0.125, 0, 0.75].slice(0, 6), rates: { sites: [["get_order_details", [4, 2, 3]]], agree: 0.5, cover: 0.75 } };
}

/** The flow with an arbiter of five identical folds that asks `jev-latest`, weighing `p1`. */
export function withArbiter(flow: FlowJson): FlowJson {
  return edited(
    flow,
    (f) => {
      f.predicates = [P1];
      f.weighed = [P1];
      f.folds = [fold(), fold(), fold(), fold(), fold()];
      f.model = "jev-latest";
      f.provenance.arbiter_cases = 36;
    },
    false,
  );
}
