/**
 * The console's HTTP server (node:http): every request gets the security headers, then the
 * access rules, then the API under /api or the UI's files. Errors are `{ error }` with their
 * status; anything unexpected is a 500 with its text.
 */
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { admit, securityHeaders, type AccessSettings } from "./access.js";
import { Api } from "./api.js";
import { BINARIES, findBinary, versionOf, type Found } from "./binaries.js";
import { Watcher } from "./events.js";
import { ApiFailure, sendError } from "./http-kit.js";
import { Jobs } from "./jobs.js";
import { Registry } from "./registry.js";
import { shownPath } from "./data-paths.js";
import { Store } from "./store.js";
import { uiAssets } from "./ui-assets.js";
import { errorText } from "../util/error-text.js";

export interface ConsoleSettings {
  data: string;
  host: string;
  port: number;
  token: string | undefined;
  readOnly: boolean;
  version: string;
  home: string | undefined;
  env: NodeJS.ProcessEnv;
  /** The console's own script, to find the binaries beside it. */
  exe: string | undefined;
  /** `--stretto PATH`. */
  stretto: Found | undefined;
  /** Where the UI's build is (tests may point elsewhere). */
  uiRoot?: string;
  /** How often the watcher looks, in ms. */
  watchMs?: number;
}

export interface RunningConsole {
  server: Server;
  address: AddressInfo;
  /** Whether the UI is built. */
  uiBuilt: boolean;
  /** Whether a stretto CLI was found for jobs. */
  cli: boolean;
  stop(): Promise<void>;
}

export async function startConsole(s: ConsoleSettings): Promise<RunningConsole> {
  const binaries = new Map<string, { found: Found | undefined; version: string | null }>();
  // Versions are asked in the background: a loaded machine takes seconds to start four programs.
  for (const name of BINARIES) {
    const found = name === "stretto" && s.stretto !== undefined ? s.stretto : findBinary(name, s.exe, s.env["PATH"]);
    const entry = { found, version: null as string | null };
    binaries.set(name, entry);
    if (found !== undefined) void versionOf(found).then((v) => (entry.version = v));
  }
  const store = new Store(s.data);
  const cli = binaries.get("stretto")?.found;
  const jobs = new Jobs(
    join(s.data, "console", "jobs"),
    s.data,
    cli,
    s.readOnly,
    async (abs) => (await store.catalog()).flows.find((f) => f.abs === abs)?.key ?? null,
    (abs) => shownPath(abs, s.data, s.home),
  );
  const watcher = new Watcher(s.data, s.watchMs ?? 1000);
  let stopped: () => void = () => undefined;
  const stopping = new Promise<void>((resolve) => (stopped = resolve));
  const api = new Api({
    data: s.data,
    home: s.home,
    version: s.version,
    readOnly: s.readOnly,
    auth: s.token !== undefined,
    env: s.env,
    store,
    registry: new Registry(s.data, s.home),
    jobs,
    watcher,
    binaries,
    view: { data: s.data, home: s.home, exe: s.exe, path: s.env["PATH"] },
    stopping,
  });
  const ui = uiAssets(s.uiRoot);
  const uiBuilt = await ui.built();
  const access: AccessSettings = { token: s.token, readOnly: s.readOnly, port: s.port };

  const server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://console.invalid");
    } catch {
      sendError(res, 400, "the request's path is not a URL");
      return;
    }
    const isApi = url.pathname === "/api" || url.pathname.startsWith("/api/");
    securityHeaders(res, isApi);
    if (!admit(req, res, url, access)) return;
    const answer = isApi
      ? api.handle(req, res, url)
      : req.method === "GET" || req.method === "HEAD"
        ? ui.serve(req, res, url.pathname)
        : Promise.resolve(sendError(res, 405, "the UI is read with GET"));
    answer.catch((e: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof ApiFailure) sendError(res, e.status, e.message);
      else sendError(res, 500, `the handler failed: ${errorText(e)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(s.port, s.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  access.port = address.port;
  return {
    server,
    address,
    uiBuilt,
    cli: cli !== undefined,
    stop: async () => {
      stopped();
      watcher.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
