// App-wide state: the console's meta, the domain filter, the theme, toasts and the job count.
import { reactive, watch } from "vue";
import { api } from "./api";
import type { Job, Meta } from "./types";

export type Theme = "system" | "light" | "dark";

function storedTheme(): Theme {
  const t = localStorage.getItem("stretto-theme");
  return t === "light" || t === "dark" ? t : "system";
}

export const store = reactive({
  meta: null as Meta | null,
  domains: [] as string[],
  domain: localStorage.getItem("stretto-domain") ?? "",
  theme: storedTheme(),
  toasts: [] as { id: number; text: string; detail: string; link: string | null }[],
  running: 0,
  palette: false,
  sidebar: localStorage.getItem("stretto-sidebar") !== "closed",
});

watch(() => store.domain, (d) => localStorage.setItem("stretto-domain", d));
watch(() => store.sidebar, (s) => localStorage.setItem("stretto-sidebar", s ? "open" : "closed"));

export function applyTheme(): void {
  localStorage.setItem("stretto-theme", store.theme);
  const dark = store.theme === "dark" || (store.theme === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}
watch(() => store.theme, applyTheme);

export function cycleTheme(): void {
  store.theme = store.theme === "system" ? "light" : store.theme === "light" ? "dark" : "system";
}

let toastId = 0;
export function toast(text: string, detail = "", link: string | null = null): void {
  const id = ++toastId;
  store.toasts.push({ id, text, detail, link });
  setTimeout(() => dismiss(id), 8000);
}
export function dismiss(id: number): void {
  const i = store.toasts.findIndex((t) => t.id === id);
  if (i >= 0) store.toasts.splice(i, 1);
}

export async function loadMeta(): Promise<void> {
  store.meta = await api.get<Meta>("/api/meta");
}

export async function loadDomains(): Promise<void> {
  const o = await api.get<{ domains: { name: string }[] }>("/api/overview");
  store.domains = o.domains.map((d) => d.name);
}

export async function loadJobCount(): Promise<void> {
  const j = await api.get<{ items: Job[] }>("/api/jobs");
  store.running = j.items.filter((x) => x.status === "running" || x.status === "queued").length;
}

export const readOnlyReason = "The console is read-only";
