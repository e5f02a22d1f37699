/**
 * Serving the console's UI build (lib/console/ui-assets.ts) over a real node:http server and
 * a temporary build folder: types and cache headers, the app's routes, the 404s, and paths
 * that try to leave the build.
 */
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import fc from "fast-check";
import { uiAssets, uiTarget } from "../../lib/console/ui-assets.js";
import { tempDir } from "../helpers/processes.js";

async function serving(root: string): Promise<{ server: Server; url: string }> {
  const ui = uiAssets(root);
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://x").pathname;
    void ui.serve(req, res, pathname);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("the console's UI assets", () => {
  const base = tempDir("stretto-ui-assets-");
  const root = join(base, "console");
  mkdirSync(join(root, "assets"), { recursive: true });
  writeFileSync(join(root, "index.html"), "<!doctype html><title>app</title>");
  writeFileSync(join(root, "assets", "index-abc.js"), "export {};");
  writeFileSync(join(root, "assets", "index-abc.css"), "body{}");
  writeFileSync(join(base, "secret.txt"), "outside");
  symlinkSync(join(base, "secret.txt"), join(root, "assets", "leak.js"));
  let server: Server;
  let url: string;

  before(async () => ({ server, url } = await serving(root)));
  after(() => server.close());

  it("answers index.html for / and for the app's routes, revalidated", async () => {
    for (const p of ["/", "/sessions/x", "/flows/shop.promoted", "/a/b/c"]) {
      const res = await fetch(url + p);
      assert.equal(res.status, 200, p);
      assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
      assert.equal(res.headers.get("cache-control"), "no-cache");
      assert.match(await res.text(), /<title>app<\/title>/);
    }
  });

  it("serves the hashed assets with their types, cached for a year", async () => {
    const js = await fetch(`${url}/assets/index-abc.js`);
    assert.equal(js.status, 200);
    assert.equal(js.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(js.headers.get("cache-control"), "public, max-age=31536000, immutable");
    const css = await fetch(`${url}/assets/index-abc.css`, { method: "HEAD" });
    assert.equal(css.headers.get("content-type"), "text/css; charset=utf-8");
    assert.equal(css.headers.get("content-length"), "6");
  });

  it("answers 404 for a missing file of the build, dot segments and links out of it", async () => {
    for (const p of ["/assets/missing.js", "/favicon.ico", "/app.JS", "/%2e%2e/secret.txt", "/assets/%2E%2E/%2E%2E/secret.txt", "/a%5Cb", "/assets/leak.js"]) {
      const res = await fetch(url + p);
      assert.equal(res.status, 404, p);
      assert.equal(await res.text(), "not found");
    }
  });

  it("refuses methods other than GET and HEAD", async () => {
    const res = await fetch(`${url}/`, { method: "POST" });
    assert.equal(res.status, 405);
    assert.deepEqual(await res.json(), { error: "the UI is read with GET" });
  });

  it("says the API is up when there is no build", async () => {
    const empty = await serving(join(base, "none"));
    try {
      const res = await fetch(`${empty.url}/sessions`);
      assert.equal(res.status, 200);
      assert.match(await res.text(), /The API is up[\s\S]*\/api\/health/);
    } finally {
      empty.server.close();
    }
  });

  it("never names a path with a dot or dot-dot segment, whatever the input", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", ".", "..", "%2e%2e", "%2E", "assets", "x.js", "%5C", "b%2Fc"), { maxLength: 6 }), (parts) => {
        const t = uiTarget(`/${parts.join("/")}`);
        if (t.kind !== "file") return;
        for (const seg of t.rel.split("/")) assert.ok(seg !== "." && seg !== ".." && !seg.includes("\\"), t.rel);
      }),
    );
  });
});
