/**
 * Best-effort credential redaction for the log header (facts-proxy-core §3.7–3.8). The
 * environment is never recorded; these rules cover what users put on command lines.
 */
const SECRET_WORDS = ["key", "token", "secret", "password", "passwd", "credential", "auth"];
export const REDACTED = "<redacted>";

/** Whether a name (an option, a variable, a query parameter) names a secret. */
export function namesSecret(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_WORDS.some((w) => lower.includes(w));
}

/** The server command with the values of credential-looking arguments replaced. */
export function redactCommand(args: readonly string[]): string[] {
  let previousWasSecretFlag = false;
  return args.map((arg) => {
    const isFlagValue = previousWasSecretFlag && !arg.startsWith("-");
    previousWasSecretFlag = false;
    const lower = arg.toLowerCase();
    if (isFlagValue || lower.startsWith("authorization:") || lower.includes("bearer ")) return REDACTED;
    const eq = arg.indexOf("=");
    if (eq !== -1 && namesSecret(arg.slice(0, eq))) return `${arg.slice(0, eq)}=${REDACTED}`;
    previousWasSecretFlag = arg.startsWith("-") && eq === -1 && namesSecret(arg);
    return arg;
  });
}

/** An upstream URL without user, password, or the values of secret-looking parameters. */
export function redactUrl(url: string): string {
  const schemeEnd = url.indexOf("://");
  const scheme = schemeEnd === -1 ? "" : url.slice(0, schemeEnd + 3);
  let rest = schemeEnd === -1 ? url : url.slice(schemeEnd + 3);

  const authorityEnd = firstIndexOf(rest, ["/", "?", "#"]);
  let authority = rest.slice(0, authorityEnd);
  rest = rest.slice(authorityEnd);
  const at = authority.lastIndexOf("@");
  if (at !== -1) authority = authority.slice(at + 1);

  const hash = rest.indexOf("#");
  const fragment = hash === -1 ? "" : rest.slice(hash);
  const beforeFragment = hash === -1 ? rest : rest.slice(0, hash);
  const q = beforeFragment.indexOf("?");
  if (q === -1) return scheme + authority + beforeFragment + fragment;

  const path = beforeFragment.slice(0, q);
  const query = beforeFragment
    .slice(q + 1)
    .split("&")
    .map((param) => {
      const eq = param.indexOf("=");
      return eq !== -1 && namesSecret(param.slice(0, eq)) ? `${param.slice(0, eq)}=${REDACTED}` : param;
    })
    .join("&");
  return `${scheme}${authority}${path}?${query}${fragment}`;
}

function firstIndexOf(text: string, needles: string[]): number {
  let best = text.length;
  for (const n of needles) {
    const i = text.indexOf(n);
    if (i !== -1 && i < best) best = i;
  }
  return best;
}
