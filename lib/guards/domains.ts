/**
 * The domains that have guards: τ²-bench's `retail` and
 * `airline`. `--guards` without `--domain`, or with another domain, is a startup error
 * (the proxy prints `stretto-proxy: <message>` and exits 125).
 */
import { Guards } from "./guards.js";
import type { Rule } from "./rule.js";
import { AIRLINE_RULES } from "./rules/airline.js";
import { RETAIL_RULES } from "./rules/retail.js";

export const GUARD_DOMAINS: readonly string[] = ["retail", "airline"];

export const NEEDS_DOMAIN = "--guards needs --domain (retail or airline)";

export function noGuardsFor(domain: string): string {
  return `no guards for ${domain}`;
}

export class GuardsSetupError extends Error {
  override name = "GuardsSetupError";
}

/** The rules of `domain`, in order; undefined for a domain without guards. */
export function rulesFor(domain: string): readonly Rule[] | undefined {
  switch (domain) {
    case "retail":
      return RETAIL_RULES;
    case "airline":
      return AIRLINE_RULES;
    default:
      return undefined;
  }
}

/** Why `--guards --domain <domain>` cannot start, if it cannot. */
export function guardsSetupError(domain: string | undefined): string | undefined {
  if (domain === undefined) return NEEDS_DOMAIN;
  return rulesFor(domain) === undefined ? noGuardsFor(domain) : undefined;
}

/** A new session's guards for `domain`; throws {@link GuardsSetupError} with the exact message. */
export function guardsFor(domain: string | undefined): Guards {
  const error = guardsSetupError(domain);
  if (error !== undefined || domain === undefined) throw new GuardsSetupError(error ?? NEEDS_DOMAIN);
  return new Guards(domain, rulesFor(domain)!);
}
