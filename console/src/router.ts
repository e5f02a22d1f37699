// A small hash router: `#/sessions/abc?tab=raw` → the page for `/sessions/:key` with its query.
import { reactive } from "vue";

export interface Route { path: string; query: URLSearchParams; name: string; params: Record<string, string> }

const patterns: [string, string][] = [
  ["overview", "/"],
  ["servers", "/servers"],
  ["server-new", "/servers/new"],
  ["server-edit", "/servers/:name/edit"],
  ["server", "/servers/:name"],
  ["sessions", "/sessions"],
  ["session", "/sessions/:key"],
  ["flows", "/flows"],
  ["flow", "/flows/:key"],
  ["jobs", "/jobs"],
  ["job-new", "/jobs/new"],
  ["job", "/jobs/:id"],
  ["settings", "/settings"],
];

function match(path: string): { name: string; params: Record<string, string> } {
  const parts = path.split("/").filter(Boolean);
  for (const [name, pattern] of patterns) {
    const want = pattern.split("/").filter(Boolean);
    if (want.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    want.forEach((w, i) => {
      const got = parts[i] ?? "";
      if (w.startsWith(":")) params[w.slice(1)] = decodeURIComponent(got);
      else if (w !== got) ok = false;
    });
    if (ok) return { name, params };
  }
  return { name: "not-found", params: {} };
}

function parse(): Route {
  const hash = location.hash.replace(/^#/, "") || "/";
  const at = hash.indexOf("?");
  const path = at < 0 ? hash : hash.slice(0, at);
  const query = new URLSearchParams(at < 0 ? "" : hash.slice(at + 1));
  return { path, query, ...match(path) };
}

export const route = reactive<Route>(parse());

window.addEventListener("hashchange", () => Object.assign(route, parse()));

/** The href of a page: `link("/sessions", { mode: "served" })`. */
export function link(path: string, query: Record<string, string | number | null | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return `#${path}${s ? `?${s}` : ""}`;
}

export function go(path: string, query: Record<string, string | number | null | undefined> = {}): void {
  location.hash = link(path, query);
}

/** Change the query of the current page (filters, tabs) without a new history entry. */
export function setQuery(changes: Record<string, string | number | null | undefined>): void {
  const q = new URLSearchParams(route.query);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === "") q.delete(k);
    else q.set(k, String(v));
  }
  const s = q.toString();
  history.replaceState(null, "", `#${route.path}${s ? `?${s}` : ""}`);
  Object.assign(route, parse());
}
