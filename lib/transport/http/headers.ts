import { ProxyError } from "../../util/proxy-error.js";

/** One configured header: its name as it goes out (lowercase) and its value. */
export type UpstreamHeader = readonly [name: string, value: string];

/** RFC 9110 `token`: what a header name may be made of. */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Headers the proxy's HTTP client writes from the request itself. A configured one would
 * frame the body wrongly or confuse the connection (request smuggling, a desync), or make
 * the server misread the body.
 */
const FRAMING = new Set([
  "content-length", "transfer-encoding", "content-encoding", "accept-encoding", "host", "connection",
  "keep-alive", "upgrade", "te", "trailer", "expect",
]);
/** Headers MCP's Streamable HTTP transport has the proxy set per request (with every `Mcp-*`). */
const PROTOCOL = new Set(["accept", "content-type", "last-event-id"]);

/**
 * Why `--upstream-header` may not send this header, or undefined when it may: the proxy sets
 * it itself, and a configured value would break its requests or take over the session.
 */
export function reservedHeader(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (FRAMING.has(lower)) return `the proxy's HTTP client sets ${name} itself; HTTP framing and connection headers cannot be configured`;
  if (lower.startsWith("proxy-")) return `${name} is meant for a forward proxy, and the proxy connects to the server directly`;
  if (PROTOCOL.has(lower) || lower.startsWith("mcp-")) {
    return `the proxy sets ${name} itself on each request; MCP's transport headers cannot be configured`;
  }
  return undefined;
}

/**
 * `--upstream-header NAME=VAR`, each resolved from the environment at start
 * (docs/secrets-and-upstream-options.md): split at the first `=`; a missing `=` or an unset variable is the proxy's own failure
 * (exit 125) and names the variable. A variable set to the empty string is accepted. The
 * values are only ever sent, never logged.
 *
 * Also: a name that cannot be an HTTP header, a header the proxy sets itself
 * (`reservedHeader`; the command line refuses those first, as a usage error), or a value
 * holding a line break or another control character is refused here too, rather than
 * failing every request later.
 */
export function resolveUpstreamHeaders(specs: readonly string[], env: NodeJS.ProcessEnv): UpstreamHeader[] {
  return specs.map((spec) => {
    const eq = spec.indexOf("=");
    if (eq === -1) {
      throw new ProxyError("--upstream-header takes NAME=VAR, the header and the environment variable holding its value");
    }
    const name = spec.slice(0, eq);
    const variable = spec.slice(eq + 1);
    const value = env[variable];
    if (value === undefined) {
      throw new ProxyError(`the environment variable ${variable}, for the header ${name}, is not set`);
    }
    if (!TOKEN.test(name)) {
      throw new ProxyError(`--upstream-header ${spec}: ${JSON.stringify(name)} cannot be the name of an HTTP header`);
    }
    const reserved = reservedHeader(name);
    if (reserved !== undefined) throw new ProxyError(`--upstream-header ${spec}: ${reserved}`);
    // Field values: visible ASCII, obs-text, space and tab (RFC 9110 §5.5); no CR, LF or NUL.
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value)) {
      throw new ProxyError(
        `the environment variable ${variable}, for the header ${name}, holds a line break or another control character`,
      );
    }
    return [name.toLowerCase(), value] as const;
  });
}
