// Every call to the console's API: JSON in and out, the write header on changes, and one error type.
import { reactive } from "vue";

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Whether the app must sign in (401) or cannot reach the server at all. */
export const access = reactive({ signIn: false, offline: false });

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  // The server refuses a change without this header, which a cross-site form cannot send.
  if (method !== "GET") headers["X-Stretto-Console"] = "1";
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  } catch (err) {
    access.offline = true;
    throw new ApiError(0, "The console server did not answer");
  }
  access.offline = false;
  const text = await res.text();
  if (res.status === 401) access.signIn = true;
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      const parsed = JSON.parse(text) as { error?: unknown };
      if (typeof parsed.error === "string") message = parsed.error;
    } catch {
      if (text.trim()) message = text.trim();
    }
    throw new ApiError(res.status, message);
  }
  return (text ? JSON.parse(text) : null) as T;
}

export const api = {
  get: <T>(path: string) => call<T>("GET", path),
  post: <T>(path: string, body?: unknown) => call<T>("POST", path, body ?? {}),
  put: <T>(path: string, body: unknown) => call<T>("PUT", path, body),
  del: <T>(path: string) => call<T>("DELETE", path),
};

/** `?a=1&b=2` from the set values only. */
export function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

export const enc = encodeURIComponent;

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
