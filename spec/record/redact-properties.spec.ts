/**
 * Properties of the log header's redaction (docs/secrets-and-upstream-options.md): whatever a secret's
 * value, wherever the command puts it, in any of the forms redaction knows, the value never
 * reaches the header; what names no secret is kept; redacting twice changes nothing more.
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { redactCommand, redactUrl } from "../../lib/record/redact.js";

const RUNS = { numRuns: 400 };

/**
 * A secret value: it starts with a marker that nothing around it contains, so finding the
 * value in the output can only mean it leaked. `printable` adds the characters that break
 * parsers (quotes, `@ : / ? # & ; = %`, spaces).
 */
const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const secretOf = (alphabet: string) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: 4, maxLength: 24 }).map((s) => `Zq7${s}`);
const plainSecret = secretOf(`${ALNUM}-_.~`);
const printableSecret = secretOf(`${ALNUM}-_.~!$'()*+,;=:@/?#&%" `);

/** Words around the secret that name nothing secret. */
const word = fc.stringMatching(/^[a-z][a-z0-9.]{0,10}$/).filter((w) => !/(key|token|secret|pass|auth|sig|jwt|cookie|pw|pwd)/.test(w));
const host = fc.tuple(word, fc.constantFrom("example.com", "internal", "db.local")).map(([a, b]) => `${a}.${b}`);
const around = fc.array(fc.oneof(word, fc.constant("--verbose"), fc.constant("--port"), fc.constant("8080")), { maxLength: 4 });

const SECRET_FLAGS = ["--api-key", "--token", "--secret", "--password", "--pass", "--client-secret", "--auth", "-p", "--jwt"];
const SECRET_NAMES = ["API_KEY", "GITHUB_TOKEN", "DB_PASS", "MYSQL_PWD", "client_secret", "--token", "--pass", "accessToken"];
const SECRET_HEADERS = ["X-API-Key", "Authorization", "Cookie", "X-Auth-Token", "Proxy-Authorization", "x-amz-security-token"];
const SECRET_PARAMS = ["token", "access_token", "api_key", "sig", "X-Amz-Signature", "jwt", "code", "session", "password", "client_secret"];
const SECRET_KEYS = ["apiKey", "password", "token", "client_secret", "auth", "jwt", "pass", "credentials"];
const SCHEMES = ["postgresql", "postgres", "mysql", "mongodb", "mongodb+srv", "redis", "rediss", "amqp", "https", "http"];

/** The secret placed in one argument-level form; the result is the argv words it makes. */
type Form = (secret: string) => fc.Arbitrary<string[]>;

const forms: Record<string, Form> = {
  "a secret flag, then its value": (s) => fc.constantFrom(...SECRET_FLAGS).map((f) => [f, s]),
  "NAME=value": (s) => fc.constantFrom(...SECRET_NAMES).map((n) => [`${n}=${s}`]),
  "a header form": (s) =>
    fc.tuple(fc.constantFrom(...SECRET_HEADERS), fc.constantFrom(": ", ":", " : ")).map(([h, sep]) => ["-H", `${h}${sep}${s}`]),
  "a Bearer token": (s) => fc.constant(["--header", `Authorization: Bearer ${s}`]),
  "URL userinfo, percent-encoded": (s) =>
    fc.tuple(fc.constantFrom(...SCHEMES), word, host).map(([scheme, user, h]) => [`${scheme}://${user}:${encodeURIComponent(s)}@${h}/db`]),
  "a password alone in the userinfo": (s) => fc.tuple(fc.constantFrom(...SCHEMES), host).map(([scheme, h]) => [`${scheme}://:${encodeURIComponent(s)}@${h}:6379/0`]),
  "a token as the URL's user": (s) => host.map((h) => [`https://${encodeURIComponent(s)}@${h}/org/repo.git`]),
  "a query parameter in any position": (s) =>
    fc
      .tuple(host, fc.constantFrom(...SECRET_PARAMS), fc.array(fc.tuple(word, word), { maxLength: 3 }), fc.array(fc.tuple(word, word), { maxLength: 3 }))
      .map(([h, name, before, after]) => {
        const pairs = [...before.map(([k, v]) => `${k}=${v}`), `${name}=${encodeURIComponent(s)}`, ...after.map(([k, v]) => `${k}=${v}`)];
        return [`https://${h}/mcp?${pairs.join("&")}`];
      }),
  "a URL inside NAME=value": (s) =>
    fc.tuple(fc.constantFrom("DATABASE_URL", "--db", "--url", "REDIS_URL"), fc.constantFrom(...SCHEMES), word, host).map(([n, scheme, u, h]) => [
      `${n}=${scheme}://${u}:${encodeURIComponent(s)}@${h}/x`,
    ]),
  "a JSON argument, the secret at any depth": (s) =>
    fc
      .tuple(fc.array(fc.constantFrom("db", "config", "server", "options"), { maxLength: 3 }), fc.constantFrom(...SECRET_KEYS), word, fc.boolean())
      .map(([path, key, other, spaced]) => {
        let value: unknown = { [key]: s, region: other };
        for (const p of path.reverse()) value = { [p]: value, n: 1 };
        return [JSON.stringify(value, null, spaced ? 2 : undefined)];
      }),
  "a JSON argument after --config=": (s) => fc.constantFrom(...SECRET_KEYS).map((k) => [`--config={"${k}":${JSON.stringify(s)},"x":1}`]),
  "a connection string of pairs": (s) =>
    fc.constantFrom(`Server=db;User Id=sa;Password=${s};Timeout=5`, `host=db user=me password=${s} dbname=x`).map((c) => [c]),
  "a shell command in one word": (s) =>
    fc.tuple(fc.constantFrom(...SECRET_FLAGS), word).map(([flag, w]) => ["sh", "-c", `exec ${w} ${flag} ${s} --verbose`]),
};

/** Whether any redacted word shows the secret, raw or percent-encoded. */
function leaks(out: string[], secret: string): boolean {
  return out.some((w) => w.includes(secret) || w.includes(encodeURIComponent(secret)));
}

describe("credential redaction: properties (fast-check)", function () {
  for (const [name, form] of Object.entries(forms)) {
    it(`never lets a secret through: ${name}`, () => {
      fc.assert(
        fc.property(
          plainSecret.chain((s) => fc.tuple(fc.constant(s), around, form(s), around)),
          ([secret, before, middle, after]) => {
            const out = redactCommand([...before, ...middle, ...after]);
            assert.ok(!leaks(out, secret), JSON.stringify(out));
          },
        ),
        RUNS,
      );
    });
  }

  it("never lets a secret through whatever characters it holds (URLs percent-encode it, JSON escapes it)", () => {
    const encoded = [
      "URL userinfo, percent-encoded", "a query parameter in any position", "a JSON argument, the secret at any depth", "NAME=value",
      "a secret flag, then its value", "a header form", "a Bearer token",
    ];
    fc.assert(
      fc.property(
        printableSecret.chain((s) => fc.tuple(fc.constant(s), fc.constantFrom(...encoded).chain((f) => forms[f]!(s)))),
        ([secret, words]) => {
          const out = redactCommand(words);
          assert.ok(!leaks(out, secret), JSON.stringify(out));
        },
      ),
      RUNS,
    );
  });

  it("takes an unescaped password holding `@ :` or `/ ? #` for one, when it starts with a letter", () => {
    const raw = fc.oneof(secretOf(`${ALNUM}@:!$&'()*+,;=`), secretOf(`${ALNUM}/?#:!$&'()*+,;=`));
    fc.assert(
      fc.property(raw, fc.constantFrom(...SCHEMES), word, host, (secret, scheme, user, h) => {
        assert.equal(redactUrl(`${scheme}://${user}:${secret}@${h}/db`), `${scheme}://${h}/db`);
      }),
      RUNS,
    );
  });

  it("never lets a secret of an --upstream URL through: userinfo and any parameter, in any position", () => {
    fc.assert(
      fc.property(
        printableSecret.chain((s) => fc.tuple(fc.constant(s), forms["a query parameter in any position"]!(s), word)),
        ([secret, [url], user]) => {
          const withUser = url!.replace("https://", `https://${user}:${encodeURIComponent(secret)}@`);
          const out = redactUrl(withUser);
          assert.ok(!leaks([out], secret), out);
        },
      ),
      RUNS,
    );
  });

  it("keeps every word that names no secret", () => {
    const kept = fc.oneof(word, host.map((h) => `https://${h}/mcp?region=eu&encoding=utf-8`), fc.constant("--verbose"), fc.tuple(word, word).map(([k, v]) => `--${k}=${v}`));
    fc.assert(
      fc.property(fc.array(kept, { maxLength: 8 }), (words) => {
        assert.deepEqual(redactCommand(words), words);
      }),
      RUNS,
    );
  });

  it("changes nothing more when redacting again", () => {
    const anyForm = plainSecret.chain((s) => fc.constantFrom(...Object.values(forms)).chain((f) => f(s)));
    fc.assert(
      fc.property(fc.tuple(around, anyForm, around), ([before, middle, after]) => {
        const once = redactCommand([...before, ...middle, ...after]);
        assert.deepEqual(redactCommand(once), once);
      }),
      RUNS,
    );
  });
});
