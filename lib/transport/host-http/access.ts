import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { refuse, TEXT, type Refusal } from "./refusal.js";

/** What every request is checked against before anything else is read. */
export interface AccessRules {
  /** The bearer token (`--listen-token-file`), or none: then only this machine may ask. */
  token?: string | undefined;
  /** The port the proxy listens on, which a Host header must name. */
  port: number;
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/**
 * The access check, first on every method. With a token, the bearer must match (compared
 * in constant time, as equal-length digests, so neither the length nor a matching prefix
 * shows in the timing); any origin may then connect. Without one, the Host must name this
 * proxy on loopback and an Origin, when sent, a page on loopback: a page on another site,
 * or one whose name was rebound to 127.0.0.1 (DNS rebinding), is refused.
 */
export function checkAccess(req: IncomingMessage, rules: AccessRules): Refusal | undefined {
  if (rules.token !== undefined) {
    const auth = req.headers.authorization;
    const given = auth !== undefined && visible(auth) && auth.startsWith("Bearer ") ? auth.slice(7).trim() : undefined;
    if (given === undefined || !timingSafeEqual(digest(given), digest(rules.token))) {
      return refuse(401, TEXT.token, { headers: { "WWW-Authenticate": "Bearer" } });
    }
  } else {
    const host = req.headers.host;
    if (host === undefined || !hostNamesUs(host, rules.port)) return refuse(403, TEXT.host);
    const origin = req.headers.origin;
    if (origin !== undefined && !originIsLocal(origin)) return refuse(403, TEXT.origin);
  }
  const version = req.headers["mcp-protocol-version"];
  if (version !== undefined && (typeof version !== "string" || !isRevision(version))) return refuse(400, TEXT.version);
  return undefined;
}

/** Header text as the protocol has it: visible ASCII and spaces (Node reads other bytes as Latin-1). */
function visible(text: string): boolean {
  return /^[\x20-\x7e\t]*$/.test(text);
}

const LOOPBACK_NAMES = (name: string) => name.toLowerCase() === "localhost" || name === "127.0.0.1" || name === "[::1]";

/** `name` and `port` of a Host (`[v6]:port`, else split at the last `:`); port undefined when absent. */
export function splitHost(text: string): { name: string; port: string | undefined } | undefined {
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    if (close === -1) return undefined;
    const rest = text.slice(close + 1);
    if (rest !== "" && !rest.startsWith(":")) return undefined;
    return { name: text.slice(0, close + 1), port: rest === "" ? undefined : rest.slice(1) };
  }
  const colon = text.lastIndexOf(":");
  return colon === -1 ? { name: text, port: undefined } : { name: text.slice(0, colon), port: text.slice(colon + 1) };
}

export function hostNamesUs(host: string, port: number): boolean {
  if (!visible(host)) return false;
  const parts = splitHost(host);
  if (!parts || !LOOPBACK_NAMES(parts.name)) return false;
  if (parts.port === undefined) return port === 80;
  return /^\d+$/.test(parts.port) && Number(parts.port) === port;
}

export function originIsLocal(origin: string): boolean {
  if (!visible(origin)) return false;
  const scheme = origin.startsWith("http://") ? 7 : origin.startsWith("https://") ? 8 : -1;
  if (scheme === -1) return false;
  const authority = origin.slice(scheme).split("/")[0]!;
  const parts = splitHost(authority);
  return parts !== undefined && LOOPBACK_NAMES(parts.name);
}

export function isRevision(v: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(v);
}
