/**
 * What `--upstream` must be: an absolute http or https URL the HTTP client can connect to.
 * Anything else would be accepted at start and then fail every request, so it is refused
 * before the session begins.
 */

/** The port in `scheme://[userinfo@]host:PORT`, as written (the URL parser only says "Invalid URL"). */
const WRITTEN_PORT = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^/?#]*@)?(?:\[[^\]]*\]|[^/?#:]*):(\d+)(?=[/?#]|$)/;

/** Why the URL cannot be proxied, or undefined when it can. */
export function upstreamUrlProblem(raw: string): string | undefined {
  const port = WRITTEN_PORT.exec(raw)?.[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return `port ${port} is out of range (1 to 65535)`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL; give the server's endpoint, like https://example.com/mcp";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `only http:// and https:// servers can be proxied, not ${url.protocol}`;
  }
  if (url.hostname === "") return "the URL names no host";
  return undefined;
}

/**
 * Whether the URL carries a user or a password. The HTTP client sends them as HTTP Basic
 * authentication (`Authorization: Basic base64(user:password)`, percent-decoded), in place
 * of any configured `Authorization`.
 */
export function hasUserinfo(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.username !== "" || url.password !== "";
  } catch {
    return false;
  }
}
