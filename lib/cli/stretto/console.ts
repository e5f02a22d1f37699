/**
 * `stretto console` (also the `stretto-console` bin): a local web app over the data directory
 * (docs/console-api.md). Prints where it listens and the URL with its token, then serves until
 * Ctrl-C or SIGTERM (exit 0). `stretto console healthcheck` asks a running console's
 * /api/health: exit 0 when it answers ok, else 1. Errors: `stretto-console: {why}`, exit 1.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { isIP } from "node:net";
import { given } from "../../console/binaries.js";
import { startConsole } from "../../console/server.js";
import { parseListenAddress, type ListenAddress } from "../../demo/http/listen-address.js";
import { osErrorText } from "../../util/os-errors.js";
import { VERSION } from "../../version.js";
import { EXIT_OK, EXIT_UNREADABLE, UsageError, type Command, type Io } from "./command.js";

const USAGE = "stretto console [--data DIR] [--listen ADDR] [--token TOKEN | --no-auth] [--read-only] [--open] [--stretto PATH] [healthcheck]";
const DEFAULT_LISTEN = "127.0.0.1:7878";

class ConsoleError extends Error {}

function address(text: string, what: string): ListenAddress {
  const a = parseListenAddress(text);
  if (a === undefined || isIP(a.host) === 0 || (isIP(a.host) === 6) !== text.startsWith("[")) throw new ConsoleError(`${what} is not an address`);
  return a;
}

function listenOf(option: string | undefined, env: NodeJS.ProcessEnv): ListenAddress {
  if (option !== undefined) {
    const a = parseListenAddress(option);
    if (a === undefined || isIP(a.host) === 0) throw new UsageError(`--listen takes an IP address and a port, such as 127.0.0.1:7878, not ${option}`, USAGE);
    return a;
  }
  const fromEnv = env["STRETTO_CONSOLE_LISTEN"]?.trim();
  if (fromEnv) return address(fromEnv, `STRETTO_CONSOLE_LISTEN=${JSON.stringify(fromEnv)}`);
  return parseListenAddress(DEFAULT_LISTEN)!;
}

const isLoopback = (host: string) => host.startsWith("127.") || host === "::1";

/** The URL a browser opens: an unspecified address becomes its loopback. */
function urlOf(a: { host: string; port: number }): string {
  const v6 = a.host.includes(":");
  const host = a.host === "0.0.0.0" ? "127.0.0.1" : a.host === "::" ? "[::1]" : v6 ? `[${a.host}]` : a.host;
  return `http://${host}:${a.port}/`;
}

function dataDir(option: string | undefined, env: NodeJS.ProcessEnv, readOnly: boolean): string {
  let dir = option;
  if (dir === undefined && env["STRETTO_HOME"]) dir = env["STRETTO_HOME"];
  if (dir === undefined) {
    const home = env["HOME"] || env["USERPROFILE"];
    if (!home) throw new ConsoleError("neither HOME nor USERPROFILE is set: pass --data");
    dir = resolve(home, ".stretto");
  }
  dir = resolve(dir);
  if (!existsSync(dir)) {
    if (readOnly) throw new ConsoleError(`${dir} does not exist (and --read-only creates nothing)`);
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new ConsoleError(`creating ${dir}: ${osErrorText(e)}`);
    }
  }
  if (!statSync(dir).isDirectory()) throw new ConsoleError(`${dir} is not a directory`);
  return realpathSync(dir);
}

async function healthcheck(a: ListenAddress, io: Io): Promise<number> {
  const host = a.host.includes(":") ? "[::1]" : "127.0.0.1";
  const url = `http://${host}:${a.port}/api/health`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) {
      io.stderr.write(`stretto-console: ${url} answered ${res.status} ${res.statusText}\n`);
      return EXIT_UNREADABLE;
    }
    const body = (await res.json()) as { ok?: unknown };
    if (body.ok === true) return EXIT_OK;
    io.stderr.write(`stretto-console: ${url} did not answer ok\n`);
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause?.message;
    io.stderr.write(`stretto-console: ${url}: ${cause ?? (e as Error).message}\n`);
  }
  return EXIT_UNREADABLE;
}

async function serve(args: Parameters<Command["run"]>[0], io: Io): Promise<number> {
  const env = process.env;
  const readOnly = args.flags.has("--read-only");
  const noAuth = args.flags.has("--no-auth");
  const tokenOption = args.options.get("--token");
  if (noAuth && tokenOption !== undefined) throw new UsageError("--token cannot be used with --no-auth", USAGE);
  const listen = listenOf(args.options.get("--listen"), env);
  if (noAuth && !isLoopback(listen.host)) {
    const shown = listen.host.includes(":") ? `[${listen.host}]:${listen.port}` : `${listen.host}:${listen.port}`;
    throw new ConsoleError(`--no-auth is refused on ${shown}: without a token, listen on a loopback address (127.0.0.1 or [::1])`);
  }
  const givenToken = tokenOption || env["STRETTO_CONSOLE_TOKEN"] || undefined;
  const token = noAuth ? undefined : (givenToken ?? randomBytes(32).toString("hex"));
  const data = dataDir(args.options.get("--data"), env, readOnly);
  const strettoPath = args.options.get("--stretto");
  let running;
  try {
    running = await startConsole({
      data,
      host: listen.host,
      port: listen.port,
      token,
      readOnly,
      version: VERSION,
      home: env["HOME"] || homedir(),
      env,
      exe: process.argv[1],
      stretto: strettoPath === undefined ? undefined : given(resolve(strettoPath)),
    });
  } catch (e) {
    throw new ConsoleError(`listening on ${args.options.get("--listen") ?? DEFAULT_LISTEN}: ${osErrorText(e)}`);
  }
  const a = running.address;
  const bound = a.family === "IPv6" ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`;
  const url = urlOf({ host: a.address, port: a.port });
  if (!running.cli) io.stderr.write("stretto-console: the stretto CLI is not beside the console or on PATH, so jobs cannot run (pass --stretto PATH)\n");
  io.stderr.write(`stretto-console: ${data} on ${bound}${readOnly ? ", read-only" : ""}\n`);
  if (token === undefined) io.stderr.write(`stretto-console: open ${url} (no token: --no-auth)\n`);
  else if (givenToken !== undefined) io.stderr.write(`stretto-console: open ${url}?token=<your token> (the token you gave; it is not printed)\n`);
  else io.stderr.write(`stretto-console: open ${url}?token=${token}\n`);
  if (!running.uiBuilt) io.stderr.write("stretto-console: this build has no UI (console/dist); the API is up, and / says how to build the UI\n");
  if (args.flags.has("--open")) openBrowser(token === undefined ? url : `${url}?token=${token}`, io);
  await new Promise<void>((done) => {
    const stop = () => done();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await running.stop();
  io.stderr.write("stretto-console: stopped\n");
  return EXIT_OK;
}

function openBrowser(url: string, io: Io): void {
  const program = process.env["BROWSER"] || (process.platform === "darwin" ? "open" : process.platform === "win32" ? "cmd" : "xdg-open");
  const args = program === "cmd" ? ["/C", "start", url] : [url];
  void import("node:child_process").then(({ spawn }) => {
    const child = spawn(program, args, { stdio: "ignore", detached: true });
    child.on("error", (e) => io.stderr.write(`stretto-console: opening the browser (${program}): ${e.message}\n`));
    child.unref();
  });
}

export const consoleCommand: Command = {
  name: "console",
  usage: USAGE,
  summary: "A local web app: sessions call by call, flows, servers, jobs, live sessions.",
  help: [
    "Serves the console (a web app and its JSON API) over the data directory: the recorded",
    "sessions (followed live while they are recorded), the flows, a registry of servers with",
    "each host's configuration, and jobs that run this stretto. Prints the URL to open, with",
    "a token that signs the browser in. Stops on Ctrl-C. `healthcheck` asks a running",
    "console whether it is up (exit 0) or not (exit 1). docs/console-api.md.",
    "",
    "  --data DIR      The data directory (default $STRETTO_HOME, else ~/.stretto).",
    "  --listen ADDR   Where to listen (default $STRETTO_CONSOLE_LISTEN, else 127.0.0.1:7878).",
    "  --token TOKEN   The token to sign in with (default $STRETTO_CONSOLE_TOKEN, else a new one).",
    "  --no-auth       No token; only on a loopback address, and only its own Host is answered.",
    "  --read-only     Change nothing: no deletes, registry edits, jobs or commits.",
    "  --open          Open the URL in the browser ($BROWSER, else the system's opener).",
    "  --stretto PATH  The stretto CLI jobs run (default: beside the console, else on PATH).",
  ].join("\n"),
  valueOptions: ["--data", "--listen", "--token", "--stretto"],
  flagOptions: ["--no-auth", "--read-only", "--open"],
  positionalChoices: ["healthcheck"],
  async run(args, io) {
    try {
      const [first, ...rest] = args.positionals;
      if (first !== undefined && first !== "healthcheck") throw new UsageError(`console takes healthcheck or nothing, not ${first}`, USAGE);
      if (rest.length > 0) throw new UsageError(`healthcheck takes no arguments, not ${rest[0]}`, USAGE);
      if (first === "healthcheck") return await healthcheck(listenOf(args.options.get("--listen"), process.env), io);
      return await serve(args, io);
    } catch (e) {
      if (e instanceof ConsoleError) {
        io.stderr.write(`stretto-console: ${e.message}\n`);
        return EXIT_UNREADABLE;
      }
      throw e;
    }
  },
};
