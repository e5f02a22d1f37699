import type { HttpUpstream, HttpUpstreamOptions } from "./http-upstream.js";

/**
 * Starts the HTTP upstream. It (and undici with it) is loaded only when `--upstream` is
 * given, so a stdio proxy does not pay for parsing an HTTP client at every start.
 */
export async function openHttpUpstream(options: HttpUpstreamOptions): Promise<HttpUpstream> {
  const { HttpUpstream } = await import("./http-upstream.js");
  return new HttpUpstream(options);
}
