/**
 * What one rule says about one call: it holds, it is broken (and why),
 * or the episode has not shown what the rule needs (and what is missing). Only a failure
 * of an enforced rule refuses; an unknown never does.
 *
 * The shape is the JSON the audits write: `{"verdict":"pass"}`,
 * `{"verdict":"fail","reason":"…"}`, `{"verdict":"unknown","reason":"…"}`.
 */
export type Verdict =
  | { readonly verdict: "pass" }
  | { readonly verdict: "fail"; readonly reason: string }
  | { readonly verdict: "unknown"; readonly reason: string };

export type VerdictKind = Verdict["verdict"];

const PASS: Verdict = Object.freeze({ verdict: "pass" });

export function pass(): Verdict {
  return PASS;
}

export function fail(reason: string): Verdict {
  return { verdict: "fail", reason };
}

export function unknown(reason: string): Verdict {
  return { verdict: "unknown", reason };
}

/** The reason of a failure or an unknown; undefined for a pass. */
export function reasonOf(v: Verdict): string | undefined {
  return v.verdict === "pass" ? undefined : v.reason;
}
