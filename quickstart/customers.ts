/**
 * Who the scripted agent serves and what each customer says. The shop is
 * `stretto-mcp-demo --world retail`: customer N is `cN@example.com`, with orders `#WNa`
 * and `#WNb`. A customer either cancels the first order or asks how the orders stand.
 */
export type Wish = "cancel" | "status";

export interface Customer {
  n: number;
  wish: Wish;
}

/** The sessions the flow is learned from: four cancels and two status questions. */
export const RECORDED: readonly Customer[] = [
  { n: 1, wish: "cancel" },
  { n: 2, wish: "status" },
  { n: 3, wish: "cancel" },
  { n: 4, wish: "status" },
  { n: 5, wish: "cancel" },
  { n: 6, wish: "cancel" },
];

/** New customers, served without and with the learned flow. */
export const SERVED: readonly Customer[] = [
  { n: 41, wish: "cancel" },
  { n: 42, wish: "status" },
];

export const emailOf = (c: Customer): string => `c${c.n}@example.com`;

/** The customer's first message, in the published run's words. */
export function opening(c: Customer): string {
  return c.wish === "cancel"
    ? `Hi, I'm ${emailOf(c)}. I want to cancel an order I no longer need.`
    : `Hello, ${emailOf(c)} here. Where are my orders?`;
}

/** The customer's answer when the agent asks which order to cancel. */
export const WHICH_ONE = "The first one, please.";

/** The reason the agent gives the shop, one of the two it accepts. */
export const REASON = "no longer needed";
