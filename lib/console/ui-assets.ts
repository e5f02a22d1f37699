/**
 * The console's UI: the files `make` builds into dist/console (a Vue app, console/), served
 * as they are. `/` and every app route answer index.html; a file of the build answers with
 * its type (hashed `assets/*` cached for a year, the rest revalidated); a missing file of the
 * build is a 404, so a broken link does not quietly load the app. Paths with `.`, `..` or `\`
 * segments are refused, and a file is served only when its real path is inside the build.
 * Without a build, every UI path answers a small page that says the API is up.
 */
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  map: "application/json",
  json: "application/json",
  txt: "text/plain; charset=utf-8",
  xml: "application/xml",
  ico: "image/x-icon",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  webp: "image/webp",
  avif: "image/avif",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  wasm: "application/wasm",
  webmanifest: "application/manifest+json",
};

const IMMUTABLE = "public, max-age=31536000, immutable";

/** Where the build is: dist/console, beside dist/lib where this module runs from. */
export function defaultUiRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../console");
}

export type UiTarget =
  | { kind: "file"; rel: string }
  | { kind: "app" }
  | { kind: "missing" };

/** What a UI path names: a file of the build, an app route (index.html), or nothing. */
export function uiTarget(pathname: string): UiTarget {
  const raw = pathname.split("/").filter((s) => s !== "");
  const segments: string[] = [];
  for (const r of raw) {
    let s: string;
    try {
      s = decodeURIComponent(r);
    } catch {
      return { kind: "missing" };
    }
    if (s === "." || s === ".." || s.includes("\\") || s.includes("/") || s.includes("\0")) return { kind: "missing" };
    segments.push(s);
  }
  if (segments.length === 0) return { kind: "file", rel: "index.html" };
  const rel = segments.join("/");
  const ext = path.extname(segments[segments.length - 1] ?? "").slice(1).toLowerCase();
  // Under assets/, or a top-level name with a known extension: a file of the build, or a 404.
  if (segments[0] === "assets" || (segments.length === 1 && ext in TYPES)) return { kind: "file", rel };
  return { kind: "app" };
}

export interface UiAssets {
  /** The folder served. */
  readonly root: string;
  /** Whether the build is there (its index.html). */
  built(): Promise<boolean>;
  /** Answers a GET or HEAD of a non-API path (`pathname` already without the query). */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void>;
}

export function uiAssets(root: string = defaultUiRoot()): UiAssets {
  const index = path.join(root, "index.html");

  async function built(): Promise<boolean> {
    return (await stat(index).catch(() => null))?.isFile() ?? false;
  }

  /** The file's real path when it is a file inside the build, else null. */
  async function inside(rel: string): Promise<string | null> {
    try {
      const realRoot = await realpath(root);
      const real = await realpath(path.join(root, rel));
      if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return null;
      return (await stat(real)).isFile() ? real : null;
    } catch {
      return null;
    }
  }

  async function serve(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (req.method !== "GET" && req.method !== "HEAD") {
      text(res, 405, "application/json", JSON.stringify({ error: "the UI is read with GET" }));
      return;
    }
    if (!(await built())) {
      text(res, 200, "text/html; charset=utf-8", NO_UI, req.method === "HEAD");
      return;
    }
    const target = uiTarget(pathname);
    if (target.kind === "missing") {
      text(res, 404, "text/plain; charset=utf-8", "not found", req.method === "HEAD");
      return;
    }
    const rel = target.kind === "app" ? "index.html" : target.rel;
    const file = await inside(rel);
    if (file === null) {
      text(res, 404, "text/plain; charset=utf-8", "not found", req.method === "HEAD");
      return;
    }
    const info = await stat(file);
    const ext = path.extname(file).slice(1).toLowerCase();
    res.statusCode = 200;
    res.setHeader("Content-Type", TYPES[ext] ?? "application/octet-stream");
    res.setHeader("Content-Length", info.size);
    res.setHeader("Cache-Control", rel.startsWith("assets/") ? IMMUTABLE : "no-cache");
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    await new Promise<void>((resolve) => {
      const stream = createReadStream(file);
      stream.on("error", () => {
        res.destroy();
        resolve();
      });
      stream.on("end", resolve);
      stream.pipe(res);
    });
  }

  return { root, built, serve };
}

function text(res: ServerResponse, status: number, type: string, body: string, head = false): void {
  res.statusCode = status;
  res.setHeader("Content-Type", type);
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(head ? undefined : body);
}

const NO_UI = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>stretto console</title></head>
<body>
<h1>The API is up</h1>
<p>This build of stretto has no UI (dist/console). The API answers: <a href="/api/health">/api/health</a>.</p>
<p>Build the UI from the repository with <code>make</code> (it runs <code>vite build</code> over <code>console/</code> into <code>dist/console</code>), then reload this page.</p>
</body></html>
`;
