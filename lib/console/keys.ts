/**
 * The names files have in the console's URLs: the file's stem with every character but
 * `A-Za-z0-9._-` made `_`. Files whose names would be the same (or a reserved word) get
 * `{base}~{8 hex of the SHA-256 of their relative path}`, the whole hash if that still
 * collides; a plain key never holds `~`, so the two kinds never meet. Keys stay the same
 * across restarts while files stay put.
 */
import { createHash } from "node:crypto";

export function baseKey(stem: string): string {
  const k = stem.replace(/[^A-Za-z0-9._-]/g, "_");
  return k === "" || /^\.+$/.test(k) ? "_" : k;
}

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

/** Keys for files by relative path ('/'-separated) and stem, in the same order. */
export function keysFor(files: readonly { rel: string; stem: string }[], reserved: ReadonlySet<string> = new Set()): string[] {
  const bases = files.map((f) => baseKey(f.stem));
  const counts = new Map<string, number>();
  for (const b of bases) counts.set(b, (counts.get(b) ?? 0) + 1);
  const keys = files.map((f, i) => {
    const b = bases[i]!;
    return counts.get(b)! > 1 || reserved.has(b) ? `${b}~${sha(f.rel).slice(0, 8)}` : b;
  });
  const seen = new Map<string, number>();
  for (const k of keys) seen.set(k, (seen.get(k) ?? 0) + 1);
  return keys.map((k, i) => (seen.get(k)! > 1 ? `${bases[i]!}~${sha(files[i]!.rel)}` : k));
}
