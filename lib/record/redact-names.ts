/**
 * Which names name a secret: an option, a variable, a JSON key, a header, a URL parameter.
 * The value that follows such a name is replaced by `<redacted>` in the log header.
 */
export const REDACTED = "<redacted>";

/** Found anywhere in a name, whatever its case: `--api-key`, `GITHUB_TOKEN`, `X-Amz-Signature`. */
const SECRET_WORDS = ["key", "token", "secret", "password", "passwd", "credential", "auth", "signature", "cookie"];

/**
 * Short words that are secrets only as a whole part of a name (`--pass`, `DB_PASS`, `MYSQL_PWD`,
 * `jwt`, `sig`), so that `--passive`, `bypass` or `signal` stay readable.
 */
const SECRET_PARTS = new Set(["pass", "pwd", "pw", "jwt", "sig"]);

/**
 * URL parameters that carry a bearer value in a URL but name ordinary things elsewhere (an
 * OAuth `code`, a `session`; `--code ./src` is not a secret). Matched as the whole name, so
 * `encoding=`, `zipcode=` and `error_code=` are kept.
 */
const SECRET_PARAMETERS = new Set(["code", "session", "sessionid", "session_id", "jsessionid", "phpsessid", "sid", "x-amz-signature"]);

/** Whether a name (an option, a variable, a JSON key, a header) names a secret. */
export function namesSecret(name: string): boolean {
  const lower = name.toLowerCase();
  if (SECRET_WORDS.some((w) => lower.includes(w))) return true;
  return lower.split(/[^a-z0-9]+/).some((part) => SECRET_PARTS.has(part));
}

/** The same for a URL's query, fragment or path parameter, its name percent-decoded. */
export function namesSecretParameter(name: string): boolean {
  const decoded = decodeLoosely(name).trim().toLowerCase();
  return namesSecret(decoded) || SECRET_PARAMETERS.has(decoded);
}

/**
 * A flag whose next word is its value and a secret: `--api-key`, `--pass`, and `-p` (the
 * password of mysql, psql-like tools; a `-p 8080` port is redacted too, which loses a number
 * and leaks nothing).
 */
export function isSecretFlag(word: string): boolean {
  return word.startsWith("-") && !word.includes("=") && (word === "-p" || namesSecret(word));
}

function decodeLoosely(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}
