import { redactUrl } from "../record/redact.js";
import { reservedHeader } from "../transport/http/headers.js";
import { hasUserinfo, upstreamUrlProblem } from "../transport/http/upstream-url.js";
import { all, one, type ParsedArgs } from "./args.js";

/**
 * The usage errors of `--upstream` and `--upstream-header` (exit 2, nothing else happens):
 * a URL that cannot be proxied, a header the proxy sets itself, and a user or password in
 * the URL together with an `Authorization` header (the URL's Basic credentials would
 * silently replace the header, and every request would be refused). The URL is echoed
 * redacted: stderr often ends up in a host's own log files.
 *
 * What the environment holds is not asked here: a spec without `=` or an unset variable is
 * the proxy's own failure (exit 125), found when the headers are resolved.
 */
export function upstreamUsageProblem(args: ParsedArgs): string | undefined {
  const url = one<string>(args, "upstream");
  if (url === undefined) return undefined;
  const urlProblem = upstreamUrlProblem(url);
  if (urlProblem !== undefined) return `invalid value '${redactUrl(url)}' for '--upstream <URL>': ${urlProblem}`;

  for (const spec of all<string>(args, "upstream-header")) {
    const eq = spec.indexOf("=");
    if (eq === -1) continue;
    const name = spec.slice(0, eq);
    const reserved = reservedHeader(name);
    if (reserved !== undefined) return `invalid value '${spec}' for '--upstream-header <NAME=VAR>': ${reserved}`;
    if (name.toLowerCase() === "authorization" && hasUserinfo(url)) {
      return (
        `the argument '--upstream-header ${spec}' cannot be used with a user or password in '--upstream <URL>': ` +
        "both set Authorization (the URL's as HTTP Basic authentication, which would replace the header); give the credentials one way"
      );
    }
  }
  return undefined;
}
