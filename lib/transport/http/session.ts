import { VERSION } from "../../version.js";
import { EraDetector, headerValue, isObject, type EraInfo, type Peek } from "../../protocol/protocol-era.js";
import type { ResponseHeaders } from "./client.js";
import type { UpstreamHeader } from "./headers.js";
import { ParamHeaders } from "./param-headers.js";

/**
 * What the proxy knows of the HTTP session, and the headers each request carries because
 * of it: the session id, the protocol era and versions (the one `initialize` agreed, the
 * last modern one the host named), the `Mcp-Param-*` mirroring learned from `tools/list`,
 * and the `--upstream-header` pairs.
 */
export class HttpSession {
  private readonly configured: readonly UpstreamHeader[];
  private readonly onEra: ((era: EraInfo) => void) | undefined;
  private readonly eras = new EraDetector();
  private readonly params = new ParamHeaders();

  private id: string | undefined;
  private agreedVersion: string | undefined;
  private modernVersion: string | undefined;

  constructor(configured: readonly UpstreamHeader[], onEra: ((era: EraInfo) => void) | undefined) {
    this.configured = configured;
    this.onEra = onEra;
  }

  /** The session's protocol era, once a host message has settled it. */
  get era(): EraInfo | undefined {
    return this.eras.info;
  }

  get isModern(): boolean {
    return this.eras.isModern;
  }

  /** The server's session id, once its answer to `initialize` gave one. */
  get sessionId(): string | undefined {
    return this.id;
  }

  /** Whether this message goes the 2026-07-28 way: it names its version, or the session does. */
  isModernFor(p: Peek): boolean {
    return p.modernVersion !== undefined || this.eras.isModern;
  }

  /** Notes a host message on its way out: what it says of the era and its version. */
  observe(p: Peek): void {
    this.noteEra(this.eras.observe(p));
    if (p.modernVersion !== undefined) this.modernVersion = p.modernVersion;
  }

  /** Keeps the session id the server gave in its answer to `initialize`. */
  learnSessionId(p: Peek, headers: ResponseHeaders): void {
    if (p.method !== "initialize") return;
    const sid = headerText(headers["mcp-session-id"]);
    if (sid !== undefined) this.id = sid;
  }

  /** Notes what the answers to `initialize` and (modern) `tools/list` tell the proxy. */
  learnFrom(p: Peek, line: Buffer): void {
    if (p.method !== "initialize" && !(p.method === "tools/list" && this.eras.isModern)) return;
    let answer: unknown;
    try {
      answer = JSON.parse(line.toString("utf8"));
    } catch {
      return;
    }
    if (p.method === "tools/list") {
      this.params.learn(answer);
      return;
    }
    const version = isObject(answer) && isObject(answer["result"]) ? answer["result"]["protocolVersion"] : undefined;
    if (typeof version === "string") {
      this.agreedVersion = version;
      this.noteEra(this.eras.agreed(version));
    }
  }

  postHeaders(p: Peek): Record<string, string> {
    const h: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const modern = this.isModernFor(p);
    if (this.id !== undefined) h["mcp-session-id"] = this.id;
    const version = p.modernVersion ?? (modern ? this.modernVersion : this.agreedVersion);
    if (version !== undefined) h["mcp-protocol-version"] = version;
    if (modern && p.method !== undefined) {
      h["mcp-method"] = p.method;
      if (p.name !== undefined) h["mcp-name"] = headerValue(p.name);
      if (p.method === "tools/call") {
        for (const [name, value] of this.params.headersFor(p.name, p.toolArguments)) h[name] = value;
      }
    }
    return this.withConfigured(h);
  }

  getHeaders(lastEventId: string | undefined): Record<string, string> {
    const h: Record<string, string> = { accept: "text/event-stream" };
    this.addSession(h);
    if (lastEventId !== undefined) h["last-event-id"] = lastEventId;
    return this.withConfigured(h);
  }

  /** The headers of the DELETE that ends the session. */
  deleteHeaders(): Record<string, string> {
    const h: Record<string, string> = {};
    this.addSession(h);
    return this.withConfigured(h);
  }

  private addSession(h: Record<string, string>): void {
    if (this.id !== undefined) h["mcp-session-id"] = this.id;
    if (this.agreedVersion !== undefined) h["mcp-protocol-version"] = this.agreedVersion;
  }

  private withConfigured(h: Record<string, string>): Record<string, string> {
    h["user-agent"] = USER_AGENT;
    for (const [name, value] of this.configured) h[name] = value;
    return h;
  }

  private noteEra(era: EraInfo | undefined): void {
    if (era !== undefined) this.onEra?.(era);
  }
}

/** Sent on every request, unless `--upstream-header` names another. */
const USER_AGENT = `stretto-proxy/${VERSION}`;

function headerText(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
