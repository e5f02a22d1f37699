/**
 * Best-effort credential redaction for the log header:
 * the server command and the upstream URL are recorded with every credential-looking value
 * replaced by `<redacted>`. The environment is never recorded; these rules cover what users
 * put on command lines. docs/secrets-and-upstream-options.md lists the forms.
 */
import { REDACTED, isSecretFlag, namesSecret } from "./redact-names.js";
import { redactJsonArgument, redactJsonLike } from "./redact-json.js";
import { redactUrl, splitAtUrls } from "./redact-url.js";
import { isPairSeparator, isSpace, joinSplit, splitOutsideQuotes, unquote } from "./redact-words.js";

export { REDACTED, namesSecret } from "./redact-names.js";
export { redactUrl } from "./redact-url.js";

/**
 * How many times an argument is taken apart (a value inside a value inside a word…)
 * before the rest is redacted whole: an argument built to nest deeper gets nothing through.
 */
const MAX_DEPTH = 16;

/** `NAME: value`, NAME an HTTP header name; `https://` is not one. */
const HEADER_FORM = /^(\s*)([!#$%&'*+.^_`|~0-9A-Za-z-]+)(\s*:\s*)(?!\/\/)([\s\S]*)$/;

/** The server command with the values of credential-looking arguments replaced. */
export function redactCommand(args: readonly string[]): string[] {
  return redactWords(args, 0);
}

/**
 * Words in order: a secret flag (`--api-key`, `--pass`, `-p`) or a bare secret header name
 * (`X-API-Key:`) makes the next word its value, redacted whole unless it is another flag;
 * every other word is read by `redactArgument`.
 */
function redactWords(words: readonly string[], depth: number): string[] {
  let secretNext = false;
  return words.map((word) => {
    const isValue = secretNext && !word.startsWith("-");
    secretNext = isSecretFlag(word) || isBareSecretHeader(word);
    return isValue ? REDACTED : redactArgument(word, depth);
  });
}

/**
 * One argument, the first rule that applies:
 * 1. a JSON object or array: secret-named keys' values redacted, re-serialised compactly
 *    (text that only looks like JSON: the values after secret-named keys, then on);
 * 2. `Authorization: …` or anything holding `Bearer `: redacted whole;
 * 3. `NAME: value` where NAME names a secret (`X-API-Key: abc`, `Cookie: a=b`): the value;
 * 4. `NAME=value`: the value if NAME names a secret (`--pass=x`, `GITHUB_TOKEN=x`), else the
 *    value read as an argument of its own (`DATABASE_URL=postgres://…`, `--config={…}`);
 * 5. URL-shaped runs (`postgresql://user:pw@host/db`): userinfo and secret parameters, and
 *    the text around them read as arguments;
 * 6. pairs split on `;` or `&` (`Server=db;Password=p q;`), each read as an argument;
 * 7. words split on whitespace (`sh -c "server --token abc"`), read as a command.
 */
export function redactArgument(argument: string, depth = 0): string {
  if (depth > MAX_DEPTH) return REDACTED;
  const inner = (s: string) => redactArgument(s, depth + 1);

  const json = redactJsonArgument(argument, inner);
  if (json !== undefined) return json;
  // JSON that does not parse (`{apiKey: 'x'}`): its secret keys' values, then the rules below.
  const text = redactJsonLike(argument);

  const lower = text.toLowerCase();
  if (lower.trimStart().startsWith("authorization:") || lower.includes("bearer ")) return REDACTED;

  const header = HEADER_FORM.exec(text);
  if (header && namesSecret(header[2]!)) {
    // A bare `X-API-Key:` leaves its value to the next word (see redactWords).
    return header[4]!.trim() === "" ? text : `${header[1]}${header[2]}${header[3]}${REDACTED}`;
  }

  const eq = text.indexOf("=");
  const name = text.slice(0, eq);
  if (eq > 0 && !/[ \t\n\r\f\v;&]/.test(name) && !name.includes("://")) {
    return namesSecret(name) ? `${name}=${REDACTED}` : `${name}=${inner(text.slice(eq + 1))}`;
  }

  const urls = splitAtUrls(text);
  if (urls.length > 1) return urls.map((part, i) => (i % 2 === 1 ? redactUrl(part) : part === "" ? part : inner(part))).join("");

  const pairs = splitOutsideQuotes(text, isPairSeparator);
  if (pairs.pieces.length > 1) return joinSplit({ ...pairs, pieces: pairs.pieces.map(inner) });

  const words = splitOutsideQuotes(text, isSpace);
  const quoted = words.pieces.length === 1 ? unquote(words.pieces[0]!) : undefined;
  if (words.pieces.length > 1 || quoted !== undefined) {
    return joinSplit({ ...words, pieces: redactQuotedWords(words.pieces, depth + 1) });
  }
  return text;
}

/** Words as a command, each read without its quotes and put back in them if it changed. */
function redactQuotedWords(pieces: readonly string[], depth: number): string[] {
  const unquoted = pieces.map((p) => unquote(p));
  const redacted = redactWords(
    pieces.map((p, i) => unquoted[i]?.inner ?? p),
    depth,
  );
  return redacted.map((r, i) => {
    const q = unquoted[i];
    if (q === undefined) return r;
    return r === q.inner ? pieces[i]! : `${q.quote}${r}${q.quote}`;
  });
}

/** `X-API-Key:` alone: its value is the next word. */
function isBareSecretHeader(word: string): boolean {
  const header = HEADER_FORM.exec(word);
  return header !== null && header[4]!.trim() === "" && namesSecret(header[2]!);
}
