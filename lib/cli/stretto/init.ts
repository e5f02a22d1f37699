/**
 * `stretto init --host HOST …`: prints the configuration that runs a server behind
 * stretto-proxy in an MCP host (stdout), then where it goes and the next steps (stderr);
 * with `--write FILE`, merges it into that file instead (docs/init.md). Exit 0; 1 when a
 * value is refused or the file cannot be written; 2 on a usage error.
 */
import { isAbsolute, resolve } from "node:path";
import { GUARD_DOMAINS } from "../../guards/domains.js";
import {
  HOSTS,
  InitError,
  domainProblem,
  isHost,
  listenAt,
  listenNote,
  nextSteps,
  placement,
  proxyName,
  snippet,
  writeConfig,
  type Host,
  type ServedFlow,
  type Setup,
  type Target,
} from "../../init/index.js";
import { expandTilde } from "../../util/tilde.js";
import { EXIT_OK, EXIT_UNREADABLE, UsageError, say, type Command, type Io, type ParsedArgs } from "./command.js";
import { ReviewError, readFlow } from "./flow-file.js";

const USAGE = "stretto init --host HOST (--domain NAME | --flow FILE) [options] (-- <SERVER_COMMAND>... | --upstream URL)";

export const initCommand: Command = {
  name: "init",
  usage: USAGE,
  summary: "Print (or write) a host's configuration that runs a server behind stretto-proxy.",
  help: [
    "Prints the configuration that runs an MCP server behind stretto-proxy in a host, recording",
    "each session: for Claude Code the `claude mcp add` command, for the others the JSON of",
    "their configuration file (stdout). Where it goes and the next steps go to stderr.",
    "",
    "  --host HOST               claude-code, claude-desktop, cursor or vscode (required).",
    "  --domain NAME             The server's name in the host, and the domain of its sessions",
    "                            and flows (default: the flow's; required without --flow).",
    "  --flow FILE               Serve this flow.",
    "  --shadow                  With --flow: decide and log, but look nothing up (--flow-shadow).",
    "  --record DIR              Where sessions are recorded (default ~/.stretto/logs/NAME, or",
    "                            ~/.stretto/shadow/NAME with --shadow).",
    "  --guards                  Check writes against the domain's policy guards (retail, airline).",
    "  --confirm-judge MODE      log or enforce: the confirmation judge (needs --guards and --context).",
    "  --context FILE            The conversation the host appends to (with --confirm-judge).",
    "  --commit                  Add stretto_commit to the server's tools.",
    "  --retain-days DAYS        Delete the proxy's logs older than DAYS days (1 or more).",
    "  --listen ADDR             One proxy listens at ADDR (IP:PORT) and hosts connect by URL.",
    "  --listen-token-file FILE  With --listen: hosts send the token in FILE.",
    "  --upstream URL            The server is a Streamable HTTP endpoint, not a command.",
    "  --upstream-header NAME=VAR  With --upstream: send header NAME, its value from the",
    "                            environment variable VAR (repeatable; the value is never written).",
    "  --write FILE              Merge the configuration into FILE (made if missing) instead of",
    "                            printing it: other servers and keys stay as they are.",
    "  --force                   With --write: replace an entry of the same name.",
    "",
    "Relative paths are made absolute (hosts start servers in a folder of their own); a",
    "leading ~ is kept. The server's command comes last, after --.",
  ].join("\n"),
  valueOptions: [
    "--host",
    "--domain",
    "--flow",
    "--record",
    "--confirm-judge",
    "--context",
    "--retain-days",
    "--listen",
    "--listen-token-file",
    "--upstream",
    "--upstream-header",
    "--write",
  ],
  flagOptions: ["--shadow", "--guards", "--commit", "--force"],
  valueChoices: { "--host": HOSTS, "--confirm-judge": ["log", "enforce"] },
  run: (args, io) => init(args, io),
};

/** A refusal of a value: `stretto: {message}`, exit 1. */
class Refused extends Error {}

function usage(reason: string): never {
  throw new UsageError(reason, USAGE);
}

async function init(args: ParsedArgs, io: Io): Promise<number> {
  let setup: Setup;
  try {
    setup = buildSetup(args, io);
  } catch (e) {
    if (!(e instanceof Refused || e instanceof ReviewError)) throw e;
    say(io, e.message);
    return EXIT_UNREADABLE;
  }
  const write = args.options.get("--write");
  if (write !== undefined) {
    let done;
    try {
      done = writeConfig(expandTilde(write), setup, args.flags.has("--force"));
    } catch (e) {
      if (!(e instanceof InitError)) throw e;
      say(io, e.message);
      return EXIT_UNREADABLE;
    }
    say(io, done === "wrote" ? `wrote ${write}` : done === "added" ? `added ${setup.domain} to ${write}` : `replaced ${setup.domain} in ${write}`);
    const note = listenNote(setup, true);
    io.stderr.write(`${note === undefined ? "" : `\n${note}\n`}\n${nextSteps(setup)}`);
    return EXIT_OK;
  }
  await new Promise<void>((done) => io.stdout.write(snippet(setup), () => done()));
  const note = listenNote(setup, false);
  io.stderr.write(`\n${placement(setup.host)}${note === undefined ? "" : ` ${note}`}\n\n${nextSteps(setup)}`);
  return EXIT_OK;
}

/** The options, checked: usage errors first (what is missing or cannot go together), then values. */
function buildSetup(args: ParsedArgs, io: Io): Setup {
  const opt = (name: string) => args.options.get(name);
  const has = (name: string) => args.options.has(name) || args.flags.has(name);
  const hostText = opt("--host");
  if (hostText === undefined) usage(`init needs --host (${HOSTS.join(", ")})`);
  if (!isHost(hostText)) usage(`--host is one of ${HOSTS.join(", ")}, not ${hostText}`);
  const host: Host = hostText;
  if (!has("--domain") && !has("--flow")) usage("init needs --domain NAME or --flow FILE");
  const command = args.positionals;
  if (command.length > 0 && has("--upstream")) usage("--upstream cannot be used with a server command after --");
  if (command.length === 0 && !has("--upstream")) usage("init needs the server's command after -- (or --upstream URL)");
  const needs: [string, string][] = [
    ["--shadow", "--flow"],
    ["--force", "--write"],
    ["--confirm-judge", "--guards"],
    ["--confirm-judge", "--context"],
    ["--context", "--confirm-judge"],
    ["--listen-token-file", "--listen"],
    ["--upstream-header", "--upstream"],
  ];
  for (const [option, needed] of needs) if (has(option) && !has(needed)) usage(`${option} needs ${needed}`);
  const judge = opt("--confirm-judge");
  if (judge !== undefined && judge !== "log" && judge !== "enforce") usage(`--confirm-judge is log or enforce, not ${judge}`);
  const retainText = opt("--retain-days");
  let retainDays: number | undefined;
  if (retainText !== undefined) {
    retainDays = /^\+?\d+$/.test(retainText) ? Number(retainText) : NaN;
    if (!Number.isSafeInteger(retainDays) || retainDays < 1) usage(`--retain-days needs a whole number of days, 1 or more, not ${retainText}`);
  }

  const flowPath = opt("--flow");
  let flow: ServedFlow | undefined;
  let flowDomain: string | undefined;
  if (flowPath !== undefined) {
    const path = forHost(flowPath);
    const loaded = readFlow(expandTilde(path));
    flowDomain = loaded.manifest.domain;
    const hasArbiter = loaded.folds.length > 0;
    flow = { path, hasArbiter, shadow: has("--shadow"), ...(hasArbiter ? {} : { decider: loaded.reach === undefined ? "habit" : "reach" }) };
  }
  const domain = opt("--domain") ?? flowDomain!;
  const problem = domainProblem(domain);
  if (problem !== undefined) throw new Refused(problem);

  const target = targetOf(args, command);
  if (has("--guards") && !GUARD_DOMAINS.includes(domain)) {
    throw new Refused(`--guards: there are no policy guards for ${domain}; ${GUARD_DOMAINS.join(" and ")} have them`);
  }
  const listenText = opt("--listen");
  const tokenFile = opt("--listen-token-file");
  let listen: Setup["listen"];
  if (listenText !== undefined) {
    const at = listenAt(listenText);
    if (at === undefined) usage(`--listen takes an IP address and a port, such as 127.0.0.1:8931, not ${listenText}`);
    if (at.port === 0) throw new Refused(`--listen ${listenText}: hosts need the port the proxy listens on, not 0`);
    if (!at.loopback && tokenFile === undefined) {
      throw new Refused(`--listen ${listenText}: without --listen-token-file, the proxy listens only on a loopback address, such as 127.0.0.1:8931`);
    }
    listen = { ...at, ...(tokenFile === undefined ? {} : { tokenFile: forHost(tokenFile) }) };
  }
  const named = proxyName(host, process.env["PATH"], process.argv[1]);
  if (named.notice !== undefined) say(io, named.notice);
  const shadow = flow?.shadow === true;
  const record = opt("--record");
  return {
    host,
    domain,
    proxy: named.proxy,
    record: record === undefined ? `~/.stretto/${shadow ? "shadow" : "logs"}/${domain}` : forHost(record),
    ...(flow === undefined ? {} : { flow }),
    ...(retainDays === undefined ? {} : { retainDays }),
    guards: has("--guards"),
    ...(judge === undefined ? {} : { judge: { mode: judge, context: forHost(opt("--context")!) } }),
    commit: has("--commit"),
    ...(listen === undefined ? {} : { listen }),
    target,
  };
}

function targetOf(args: ParsedArgs, command: string[]): Target {
  const url = args.options.get("--upstream");
  if (url === undefined) {
    const [program, ...rest] = command;
    // `./bin/server` would be looked up in the folder the host starts it in; `npx` on PATH.
    const local = program !== undefined && !isAbsolute(program) && program.includes("/");
    return { kind: "command", words: [local ? forHost(program) : program!, ...rest] };
  }
  if (!/^https?:\/\//.test(url)) throw new Refused(`--upstream ${JSON.stringify(url)}: the server's URL starts with http:// or https://`);
  const headers = (args.lists.get("--upstream-header") ?? []).map((h) => {
    const eq = h.indexOf("=");
    if (eq <= 0 || eq === h.length - 1) throw new Refused("--upstream-header takes NAME=VAR, the header and the environment variable holding its value");
    return { name: h.slice(0, eq), variable: h.slice(eq + 1) };
  });
  return { kind: "upstream", url, headers };
}

/** A path as the host gets it: `~…` and absolute paths as given, others made absolute here. */
function forHost(path: string): string {
  if (path.startsWith("~") || isAbsolute(path)) return path;
  try {
    return resolve(process.cwd(), path);
  } catch {
    throw new Refused(`resolving ${path}: the current directory is gone`);
  }
}
