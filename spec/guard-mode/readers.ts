/**
 * How servers read the lines a proxy hands them, each as some real reader does. A guard
 * is only as good as the agreement between what it judged and what every one of these
 * reads: a line they read differently is a line that can smuggle a call past it.
 */
import { visit } from "jsonc-parser";

export type Reader = (bytes: Buffer) => unknown[];

/** Lines split on `\n` only, as the MCP TypeScript SDK and most stdio servers do. */
const lf = (bytes: Buffer) => bytes.toString("latin1").split("\n").map((l) => Buffer.from(l, "latin1"));

/** Universal newlines (`\r`, `\n`, `\r\n`), as Python's text streams read stdin. */
const universal = (bytes: Buffer) => bytes.toString("latin1").split(/\r\n|\r|\n/).map((l) => Buffer.from(l, "latin1"));

const fatal = new TextDecoder("utf-8", { fatal: true });
const lossy = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

function parseOr(text: string, parse: (t: string) => unknown): unknown[] {
  if (text.trim() === "") return [];
  try {
    return [parse(text)];
  } catch {
    return [];
  }
}

/** A first-wins JSON reader (some Go and Rust readers keep the first of two equal keys). */
export function parseFirstWins(text: string): unknown {
  const stack: Array<{ value: unknown[] | Record<string, unknown>; key?: string | undefined }> = [];
  let root: unknown;
  let failed = false;
  let pendingKey: string | undefined;
  const put = (v: unknown) => {
    const top = stack[stack.length - 1];
    if (!top) root = v;
    else if (Array.isArray(top.value)) top.value.push(v);
    else if (pendingKey !== undefined && !Object.prototype.hasOwnProperty.call(top.value, pendingKey)) {
      Object.defineProperty(top.value, pendingKey, { value: v, enumerable: true, writable: true, configurable: true });
    }
    pendingKey = undefined;
  };
  visit(
    text,
    {
      onObjectBegin: () => {
        const o: Record<string, unknown> = {};
        put(o);
        stack.push({ value: o });
      },
      onObjectEnd: () => void stack.pop(),
      onArrayBegin: () => {
        const a: unknown[] = [];
        put(a);
        stack.push({ value: a });
      },
      onArrayEnd: () => void stack.pop(),
      onObjectProperty: (p) => (pendingKey = p),
      onLiteralValue: (v) => put(v),
      onError: () => (failed = true),
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  if (failed) throw new Error("not JSON");
  return root;
}

/** Python's json/pydantic accept NaN and ±Infinity as numbers. */
const withNaN = (t: string): unknown => JSON.parse(t.replace(/(?<=[:,[\s])(-?Infinity|NaN)(?=[\s,\]}])/g, "0"));

export const READERS: Record<string, Reader> = {
  "strict JSON": (b) => lf(b).flatMap((l) => (isUtf8(l) ? parseOr(fatal.decode(l), JSON.parse) : [])),
  "last-wins, lossy UTF-8": (b) => lf(b).flatMap((l) => parseOr(lossy.decode(l), JSON.parse)),
  "first-wins, lossy UTF-8": (b) => lf(b).flatMap((l) => parseOr(lossy.decode(l), parseFirstWins)),
  "universal newlines": (b) => universal(b).flatMap((l) => parseOr(lossy.decode(l), JSON.parse)),
  "pydantic-style NaN, universal newlines": (b) => universal(b).flatMap((l) => parseOr(lossy.decode(l), withNaN)),
  "BOM-skipping": (b) => lf(b).flatMap((l) => parseOr(lossy.decode(l).replace(/^\ufeff/, ""), JSON.parse)),
};

function isUtf8(b: Buffer): boolean {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
}

/** Every `tools/call` of `tool` a reader's messages hold, batches (even nested) opened. */
export function callsOf(messages: unknown[], tool: string): unknown[] {
  const out: unknown[] = [];
  const walk = (m: unknown) => {
    if (Array.isArray(m)) return m.forEach(walk);
    if (m === null || typeof m !== "object") return;
    const v = m as { method?: unknown; params?: { name?: unknown } };
    if (v.method === "tools/call" && v.params?.name === tool) out.push(m);
  };
  messages.forEach(walk);
  return out;
}
