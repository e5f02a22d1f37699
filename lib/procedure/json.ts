/**
 * JSON as a procedure sees it. Tool results decide features by how a number was written
 * (`3` is a feature, `3.0` and `15.1` are not), which `JSON.parse` forgets, so numbers keep
 * their kind and their text. Objects are Maps: a result may use any key (`__proto__`
 * included), and a later duplicate key wins, as in the reference reader.
 */
export class JsonNumber {
  constructor(
    /** The number's text as written. */
    readonly text: string,
    /** Written with no fraction or exponent and fits a 64-bit integer (signed or not). */
    readonly integer: boolean,
  ) {}

  get value(): number {
    return Number(this.text);
  }
}

export type Json = null | boolean | string | JsonNumber | Json[] | JsonObject;
export type JsonObject = Map<string, Json>;

export function isObject(v: Json | undefined): v is JsonObject {
  return v instanceof Map;
}

const I64_MIN = -(2n ** 63n);
const U64_MAX = 2n ** 64n - 1n;

/** The number a lexeme stands for, with its kind. */
export function jsonNumber(text: string): JsonNumber {
  if (/[.eE]/.test(text)) return new JsonNumber(text, false);
  const n = BigInt(text);
  return new JsonNumber(text, n >= I64_MIN && n <= U64_MAX);
}

/**
 * A number's text the way the output prints it: an integer in plain decimal (`-0` is
 * `0`), a float in its shortest form, with `.0` on a whole one below 1e16.
 */
export function numberText(n: JsonNumber): string {
  if (n.integer) return BigInt(n.text).toString();
  const v = n.value;
  if (Number.isInteger(v) && Math.abs(v) < 1e16) return `${BigInt(v).toString()}.0`;
  return String(v);
}

/** JSON equality: numbers equal only when of one kind and value (`1` is not `1.0`). */
export function jsonEqual(a: Json, b: Json): boolean {
  if (a instanceof JsonNumber || b instanceof JsonNumber) {
    if (!(a instanceof JsonNumber && b instanceof JsonNumber) || a.integer !== b.integer) return false;
    return a.integer ? BigInt(a.text) === BigInt(b.text) : a.value === b.value;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!(Array.isArray(a) && Array.isArray(b)) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]!));
  }
  if (isObject(a) || isObject(b)) {
    if (!(isObject(a) && isObject(b)) || a.size !== b.size) return false;
    for (const [k, v] of a) {
      const w = b.get(k);
      if (w === undefined || !jsonEqual(v, w)) return false;
    }
    return true;
  }
  return a === b;
}

/** Keys in byte order of their UTF-8, the order the output and the guard keys use. */
export function sortedKeys(o: JsonObject): string[] {
  return [...o.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** Compact JSON with sorted keys (guard keys, JSON-RPC messages, error texts). */
export function compact(v: Json): string {
  if (v instanceof JsonNumber) return numberText(v);
  if (Array.isArray(v)) return `[${v.map(compact).join(",")}]`;
  if (isObject(v)) return `{${sortedKeys(v).map((k) => `${JSON.stringify(k)}:${compact(v.get(k)!)}`).join(",")}}`;
  return JSON.stringify(v);
}

/** Pretty JSON with two-space indent and sorted keys; empty containers print as `[]`, `{}`. */
export function pretty(v: Json, indent = ""): string {
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    return `[\n${v.map((x) => inner + pretty(x, inner)).join(",\n")}\n${indent}]`;
  }
  if (isObject(v)) {
    if (v.size === 0) return "{}";
    const keys = sortedKeys(v);
    return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${pretty(v.get(k)!, inner)}`).join(",\n")}\n${indent}}`;
  }
  return compact(v);
}

/** A plain JS value as Json (for values built in code, such as the JSON-RPC messages). */
export function fromPlain(v: unknown): Json {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number") return jsonNumber(Number.isInteger(v) ? String(v) : String(v));
  if (Array.isArray(v)) return v.map(fromPlain);
  if (v instanceof Map) return v as JsonObject;
  if (typeof v === "object") return new Map(Object.entries(v).map(([k, x]) => [k, fromPlain(x)]));
  throw new TypeError(`not JSON: ${typeof v}`);
}

/** Json as a plain JS value (numbers lose their kind), for schema validation. */
export function toPlain(v: Json): unknown {
  if (v instanceof JsonNumber) return v.value;
  if (Array.isArray(v)) return v.map(toPlain);
  if (isObject(v)) {
    const o: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [k, x] of v) o[k] = toPlain(x);
    return o;
  }
  return v;
}
