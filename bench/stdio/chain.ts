/**
 * The process chains the stdio benchmark measures, and their clean-up. A chain is the
 * process the host talks to: the echo server itself (direct), or something sitting in
 * front of it (the bare relay, stretto-proxy). Every chain started is tracked so that an
 * early exit, a failure or ^C still leaves no process behind.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { dirname, join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { descendantsOf } from "./stats.js";

const here = dirname(fileURLToPath(import.meta.url));
/** The compiled files, as laid out under `dist/`. */
export const ECHO_SERVER = join(here, "echo-server.js");
export const BARE_RELAY = join(here, "bare-relay.js");
export const STRETTO_PROXY = join(here, "..", "..", "lib", "cli", "stretto-proxy.js");

export type ConfigName = "direct" | "relay" | "proxy" | "record";

export interface Configuration {
  name: ConfigName;
  /** How the row is labelled in the table. */
  label: string;
  /**
   * The command line that puts this configuration in front of the echo server; `nodeFlags`
   * go to the relay's or proxy's own node (`--cpu-prof` …), never to the server's.
   */
  argv(recordDir: string | undefined, nodeFlags?: readonly string[]): string[];
  /** The process whose memory and CPU the row reports (none for direct). */
  hasMiddle: boolean;
  needsRecordDir: boolean;
}

const node = process.execPath;
const echo = [node, ECHO_SERVER];

export const CONFIGURATIONS: readonly Configuration[] = [
  { name: "direct", label: "direct", hasMiddle: false, needsRecordDir: false, argv: () => echo },
  {
    name: "relay",
    label: "bare relay",
    hasMiddle: true,
    needsRecordDir: false,
    argv: (_dir, flags = []) => [node, ...flags, BARE_RELAY, "--", ...echo],
  },
  {
    name: "proxy",
    label: "stretto-proxy",
    hasMiddle: true,
    needsRecordDir: false,
    argv: (_dir, flags = []) => [node, ...flags, STRETTO_PROXY, "--", ...echo],
  },
  {
    name: "record",
    label: "  --record",
    hasMiddle: true,
    needsRecordDir: true,
    argv: (dir, flags = []) => [node, ...flags, STRETTO_PROXY, "--record", dir!, "--", ...echo],
  },
];

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const live = new Set<Chain>();

/** One running chain; `stop()` ends it the way a host would, then makes sure. */
export class Chain {
  readonly proc: ChildProcessByStdio<Writable, Readable, Readable>;
  /** `performance.now()` just before the spawn. */
  readonly spawnedAt: number;
  readonly exited: Promise<ExitStatus>;
  private stderrText = "";
  private hasExited = false;

  constructor(argv: readonly string[]) {
    const [program, ...args] = argv;
    this.spawnedAt = performance.now();
    this.proc = spawn(program!, args, { stdio: ["pipe", "pipe", "pipe"] });
    live.add(this);
    this.proc.stdin.on("error", () => undefined); // EPIPE if the chain died: reported via exit
    this.proc.stderr.setEncoding("utf8");
    this.proc.stderr.on("data", (s: string) => {
      if (this.stderrText.length < 16_384) this.stderrText += s;
    });
    this.exited = new Promise((resolve) => {
      this.proc.once("exit", (code, signal) => {
        this.hasExited = true;
        live.delete(this);
        resolve({ code, signal });
      });
    });
  }

  get pid(): number {
    return this.proc.pid!;
  }

  get stderr(): string {
    return this.stderrText;
  }

  /**
   * Closes the chain's stdin (the MCP way to ask a stdio server to stop) and waits up to
   * `graceMs`; then SIGKILLs the chain and everything it started. Resolves with the exit.
   */
  async stop(graceMs = 5000): Promise<ExitStatus> {
    const below = descendantsOf(this.pid);
    this.proc.stdin.end();
    const timer = new Promise<undefined>((r) => setTimeout(() => r(undefined), graceMs).unref());
    const status = await Promise.race([this.exited, timer]);
    if (status === undefined) this.kill();
    for (const pid of below) signal(pid, "SIGKILL"); // a server the chain left behind
    return status ?? (await this.exited);
  }

  /** SIGKILL at once, the chain and its descendants. */
  kill(): void {
    if (this.hasExited) return;
    for (const pid of descendantsOf(this.pid)) signal(pid, "SIGKILL");
    signal(this.pid, "SIGKILL");
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // ESRCH: already gone.
  }
}

/** Kills every chain still running; for exits, failures and signals. */
export function killAllChains(): void {
  for (const chain of live) chain.kill();
}
