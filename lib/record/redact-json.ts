import { REDACTED, isSecretFlag, namesSecret } from "./redact-names.js";

/** Deeper than this, a value is redacted whole rather than walked. */
const MAX_DEPTH = 64;

/**
 * An argument that is a JSON object or array (`{"apiKey":"…","db":{"password":"…"}}`),
 * with the value of every secret-named key replaced by `"<redacted>"` whatever it holds (an
 * object under `auth` may hide its secret under any name), strings read by `text` (a URL, a
 * header form), an array's strings read like command words (`["--token","x"]`), and the
 * rest kept. It is written anew, compactly, from the parsed value: nothing of the argument's
 * own text survives but what the value holds (a duplicate key's first value is gone). Undefined
 * when the argument is not a JSON object or array.
 */
export function redactJsonArgument(argument: string, text: (s: string) => string): string | undefined {
  const t = argument.trim();
  const bracketed = (t.startsWith("{") && t.endsWith("}")) || (t.startsWith("[") && t.endsWith("]"));
  if (!bracketed) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch {
    return undefined;
  }
  return write(value, text, 0);
}

const REDACTED_JSON = JSON.stringify(REDACTED);

/** `key: value` or `"key" = 'value'` inside text that only looks like JSON. */
const KEY_VALUE = /(["']?)(?<![\w$.-])([A-Za-z_$][\w$.-]*)\1(\s*[:=]\s*)("(?:[^"\\]|\\.)*"?|'[^']*'?|[^,}\]\s]+)/g;

/**
 * An argument that looks like JSON but does not parse (a JS object literal, JSON5, a YAML
 * flow map: `{apiKey: 'x'}`), with the value after each secret-named key replaced. Any
 * other text comes back as it is.
 */
export function redactJsonLike(argument: string): string {
  const t = argument.trimStart();
  if (!t.startsWith("{") && !t.startsWith("[")) return argument;
  return argument.replace(KEY_VALUE, (whole, q: string, key: string, sep: string) =>
    namesSecret(key) ? `${q}${key}${q}${sep}${REDACTED_JSON}` : whole,
  );
}

function write(value: unknown, text: (s: string) => string, depth: number): string {
  if (typeof value === "string") return JSON.stringify(text(value));
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (depth >= MAX_DEPTH) return REDACTED_JSON;
  if (Array.isArray(value)) {
    let secretNext = false;
    const items = value.map((v: unknown) => {
      const isValue = secretNext && !(typeof v === "string" && v.startsWith("-"));
      secretNext = typeof v === "string" && isSecretFlag(v);
      return isValue ? REDACTED_JSON : write(v, text, depth + 1);
    });
    return `[${items.join(",")}]`;
  }
  // Entries, not a rebuilt object: a `__proto__` key stays a key.
  const members = Object.entries(value).map(
    ([k, v]) => `${JSON.stringify(k)}:${namesSecret(k) ? REDACTED_JSON : write(v, text, depth + 1)}`,
  );
  return `{${members.join(",")}}`;
}
