/** A URL as the HTTP client sends to it: where to connect, the request target, and its credentials. */
export interface Endpoint {
  readonly url: string;
  /** `scheme://host:port`. */
  readonly origin: string;
  /** The path and query, as the request line carries them. */
  readonly path: string;
  /** `Basic …` from a user and password in the URL (percent-decoded), if it has them. */
  readonly authorization: string | undefined;
}

export function endpoint(url: string | URL): Endpoint {
  const u = typeof url === "string" ? new URL(url) : url;
  const hasUser = u.username !== "" || u.password !== "";
  return {
    url: typeof url === "string" ? url : url.href,
    origin: u.origin,
    path: `${u.pathname}${u.search}`,
    authorization: hasUser
      ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString("base64")}`
      : undefined,
  };
}
