import { REDACTED, namesSecretParameter } from "./redact-names.js";

/**
 * A URL-shaped run of text: a scheme, `://`, then up to whitespace, a double quote or a
 * backtick. Connection strings are URLs too (`postgresql://`, `mongodb+srv://`, `redis://`,
 * `jdbc:mysql://`). A single quote stays in (a password may hold one unescaped, and
 * `encodeURIComponent` leaves it as it is), and so do `<` and `>`, so a URL already redacted
 * reads the same again.
 */
// It starts only where a scheme can (the lookbehind), so a long run of letters is scanned once.
const URL_SHAPED = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"`]*/g;

/** Each URL-shaped run in the text redacted (`redactUrl`), the rest unchanged. */
export function redactUrls(text: string): string {
  return text.includes("://") ? text.replace(URL_SHAPED, (url) => redactUrl(url)) : text;
}

/** Splits the text into runs that are not URLs (even indexes) and URLs (odd indexes). */
export function splitAtUrls(text: string): string[] {
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(URL_SHAPED)) {
    parts.push(text.slice(last, m.index), m[0]);
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

/**
 * A URL without its userinfo (user and password: a token is often put in the user part,
 * `https://<token>@github.com/…`), and with the values of secret-named parameters replaced,
 * in the query, the fragment (`#access_token=…`) and the path (`;jsessionid=…`, and
 * `jdbc:sqlserver://host;password=…`), in any position.
 */
export function redactUrl(url: string): string {
  const schemeEnd = url.indexOf("://");
  const scheme = schemeEnd === -1 ? "" : url.slice(0, schemeEnd + 3);
  let rest = schemeEnd === -1 ? url : url.slice(schemeEnd + 3);
  rest = rest.slice(userinfoEnd(rest));

  const hash = rest.indexOf("#");
  const fragment = hash === -1 ? "" : rest.slice(hash + 1);
  const beforeFragment = hash === -1 ? rest : rest.slice(0, hash);
  const q = beforeFragment.indexOf("?");
  const path = q === -1 ? beforeFragment : beforeFragment.slice(0, q);
  const query = q === -1 ? undefined : beforeFragment.slice(q + 1);

  let out = scheme + redactPathParameters(path);
  if (query !== undefined) out += `?${redactParameters(query)}`;
  // A fragment with no `=` is a plain anchor; one with pairs is read like a query.
  if (hash !== -1) out += `#${fragment.includes("=") ? redactParameters(fragment) : fragment}`;
  return out;
}

/**
 * Where the host begins: just past the userinfo's last `@` within the authority (the text
 * up to the first `/`, `?` or `#`). A password holding an unescaped `/`, `?` or `#` ends
 * that authority early (`user:pa/ss@host`); when what follows the first colon is then not
 * a port number, the userinfo runs to the URL's last `@`. Losing a host to that reading
 * leaks nothing; keeping a piece of a password would.
 */
function userinfoEnd(rest: string): number {
  const authorityEnd = firstIndexOf(rest, ["/", "?", "#"]);
  const at = authorityEnd === 0 ? -1 : rest.lastIndexOf("@", authorityEnd - 1);
  if (at !== -1) return at + 1;
  const colon = rest.indexOf(":");
  if (rest.startsWith("[") || colon === -1 || colon >= authorityEnd) return 0;
  if (/^\d+$/.test(rest.slice(colon + 1, authorityEnd))) return 0;
  const lastAt = rest.lastIndexOf("@");
  return lastAt === -1 ? 0 : lastAt + 1;
}

/** `name=value` pairs split on `&` or `;`, each secret-named value replaced. */
function redactParameters(text: string): string {
  return text
    .split(/([&;])/)
    .map((part, i) => (i % 2 === 1 ? part : redactParameter(part)))
    .join("");
}

function redactParameter(param: string): string {
  const eq = param.indexOf("=");
  if (eq === -1) return param;
  const name = param.slice(0, eq);
  // A value that is itself an unescaped URL (`?redirect=https://u:p@host/…`) is read too.
  return namesSecretParameter(name) ? `${name}=${REDACTED}` : `${name}=${redactUrls(param.slice(eq + 1))}`;
}

/** `;name=value` parameters in the authority or the path. */
function redactPathParameters(path: string): string {
  return path.replace(/;([^;=/?#]*)=([^;/?#]*)/g, (whole, name: string) => (namesSecretParameter(name) ? `;${name}=${REDACTED}` : whole));
}

function firstIndexOf(text: string, needles: string[]): number {
  let best = text.length;
  for (const n of needles) {
    const i = text.indexOf(n);
    if (i !== -1 && i < best) best = i;
  }
  return best;
}
