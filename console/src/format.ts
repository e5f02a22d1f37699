// How numbers, times and sizes read on the page.

export function date(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  const d = new Date(ms);
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)}`;
}

export function ago(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "never";
  const s = Math.round((Date.now() - ms) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} days ago`;
}

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60000);
  return `${m} min ${Math.round((ms % 60000) / 1000)} s`;
}

export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return "—";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

export function num(n: number | null | undefined): string {
  return n === null || n === undefined ? "—" : n.toLocaleString("en-US");
}

export function prob(p: number | null | undefined): string {
  return p === null || p === undefined ? "—" : p.toFixed(2);
}

export function compact(value: unknown): string {
  if (value === undefined) return "";
  const s = JSON.stringify(value) ?? "";
  return s.length > 160 ? `${s.slice(0, 160)}…` : s;
}

export function upstreamText(u: { kind: string; command?: string[]; url?: string } | null | undefined): string {
  if (!u) return "—";
  return u.kind === "http" ? (u.url ?? "") : (u.command ?? []).join(" ");
}
