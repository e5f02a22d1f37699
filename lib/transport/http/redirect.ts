import { endpoint, type Endpoint } from "./endpoint.js";

/** Redirects followed for one request before it fails. */
export const FOLLOWED_REDIRECTS = 10;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A request redirected more often than that; it fails as an unreachable server would. */
export class TooManyRedirects extends Error {
  constructor() {
    super(`Redirected ${FOLLOWED_REDIRECTS} times. Aborting.`);
    this.name = "TooManyRedirects";
  }
}

/** Where a redirect answer sends the request, or undefined when the answer is not one to follow. */
export function redirectTarget(
  status: number,
  location: string | string[] | undefined,
  from: Endpoint,
): { endpoint: Endpoint; sameOrigin: boolean } | undefined {
  if (!REDIRECTS.has(status)) return undefined;
  const where = Array.isArray(location) ? location[0] : location;
  if (where === undefined || where === "") return undefined;
  let next: URL;
  try {
    next = new URL(where, from.url);
  } catch {
    return undefined;
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") return undefined;
  const to = endpoint(next);
  return { endpoint: to, sameOrigin: to.origin === from.origin };
}
