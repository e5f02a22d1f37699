/**
 * Who may ask what (docs/console-api.md, "Access"): the Host check without a token (against
 * DNS rebinding), a link's `?token=` turned into a cookie, the token on every API request but
 * health, the write header on every change, and read-only. Each step answers the request
 * itself when it refuses it; `admit` returns whether the request goes on.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendError } from "./http-kit.js";

export interface AccessSettings {
  /** undefined: --no-auth. */
  token: string | undefined;
  readOnly: boolean;
  /** The port the console listens on, which a Host header must name without a token. */
  port: number;
}

export const COOKIE = "stretto_console";
export const WRITE_HEADER = "x-stretto-console";

export const SIGN_IN =
  "sign in: open the URL with the token that stretto-console printed when it started, or send Authorization: Bearer <token>";
export const NEEDS_HEADER = "a change needs the header X-Stretto-Console: 1, which the console's UI sends";
export const READ_ONLY = "the console is read-only (--read-only): it changes nothing";
export const BAD_HOST =
  "the Host header must be localhost, 127.0.0.1 or [::1] with the console's port: without a token (--no-auth), the console answers only its own address";

const WRITES = new Set(["POST", "PUT", "DELETE", "PATCH"]);

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** Compared by digests, so the time taken says nothing of how much matched. */
export function sameToken(given: string, token: string): boolean {
  return timingSafeEqual(digest(given), digest(token));
}

/** Whether `host` (a Host header) is the console's own loopback address and port. */
export function loopbackHost(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const h = host.toLowerCase();
  const m = /^(localhost|127\.0\.0\.1|\[::1\])(?::(\d+))?$/.exec(h);
  if (m === null) return false;
  return m[2] === undefined ? port === 80 : Number(m[2]) === port;
}

/** The tokens a request carries: each `stretto_console=` cookie, and a Bearer header. */
function presented(req: IncomingMessage): string[] {
  const out: string[] = [];
  const cookies = req.headers.cookie;
  for (const header of cookies === undefined ? [] : [cookies]) {
    for (const pair of header.split(";")) {
      const eq = pair.indexOf("=");
      if (eq > 0 && pair.slice(0, eq).trim() === COOKIE) out.push(pair.slice(eq + 1).trim());
    }
  }
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) out.push(auth.slice("Bearer ".length).trim());
  return out;
}

const WRONG_LINK = `<!doctype html><meta charset="utf-8"><title>stretto console</title>
<p>This link's token is not this console's. Open the URL stretto-console printed when it started.</p>\n`;

function html(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.end(body);
}

/** `url`'s query without its `token` parameters, others kept in order. */
export function withoutToken(url: URL): string {
  const kept = url.search
    .slice(1)
    .split("&")
    .filter((p) => p !== "" && p !== "token" && !p.startsWith("token="));
  return url.pathname + (kept.length > 0 ? `?${kept.join("&")}` : "");
}

export function admit(req: IncomingMessage, res: ServerResponse, url: URL, s: AccessSettings): boolean {
  if (s.token === undefined && !loopbackHost(req.headers.host, s.port)) {
    sendError(res, 403, BAD_HOST);
    return false;
  }
  const api = url.pathname === "/api" || url.pathname.startsWith("/api/");
  if (!api && url.searchParams.has("token")) {
    const given = url.searchParams.get("token") ?? "";
    if (s.token !== undefined && !sameToken(given, s.token)) {
      html(res, 401, WRONG_LINK);
      return false;
    }
    res.statusCode = 303;
    res.setHeader("Location", withoutToken(url));
    res.setHeader("Cache-Control", "no-store");
    if (s.token !== undefined) res.setHeader("Set-Cookie", `${COOKIE}=${s.token}; HttpOnly; SameSite=Strict; Path=/`);
    res.end();
    return false;
  }
  if (!api || url.pathname === "/api/health") return true;
  if (s.token !== undefined && !presented(req).some((t) => sameToken(t, s.token!))) {
    res.setHeader("WWW-Authenticate", "Bearer");
    sendError(res, 401, SIGN_IN);
    return false;
  }
  if (WRITES.has(req.method ?? "")) {
    if (req.headers[WRITE_HEADER] !== "1") {
      sendError(res, 403, NEEDS_HEADER);
      return false;
    }
    if (s.readOnly && url.pathname !== "/api/logout") {
      sendError(res, 403, READ_ONLY);
      return false;
    }
  }
  return true;
}

/** On every answer; API answers are not stored unless they say otherwise. */
export function securityHeaders(res: ServerResponse, api: boolean): void {
  res.setHeader(
    "Content-Security-Policy",
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'",
  );
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("X-Frame-Options", "DENY");
  if (api) res.setHeader("Cache-Control", "no-store");
}

export function logout(res: ServerResponse): void {
  res.setHeader("Set-Cookie", `${COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`);
}
