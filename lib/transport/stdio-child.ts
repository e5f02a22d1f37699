import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { ProxyError } from "../util/proxy-error.js";
import { osErrorText } from "../util/os-errors.js";
import type { ExitStatus, ServerTransport } from "../bus/server-port.js";
import { HeldOutput } from "./held-output.js";

export interface StdioChildOptions {
  /** How long the server may take to exit after its stdin closes, before it is signalled. */
  graceMs?: number;
}

/**
 * The server as a child process: no shell, stdin and stdout piped, stderr, environment and
 * working directory inherited. It leads its own process group, so a stop reaches every
 * process it started (an `npx` wrapper's real server included) and leaves no orphans.
 */
export class StdioChild implements ServerTransport {
  readonly input: Writable;
  readonly output: Readable;
  readonly exited: Promise<ExitStatus>;
  private exitStatus: ExitStatus | undefined;

  private constructor(
    private readonly child: ChildProcessByStdio<Writable, Readable, null>,
    private readonly graceMs: number,
  ) {
    this.input = child.stdin;
    // Read from now on: a server that exits at once must still be heard to the end.
    this.output = new HeldOutput(child.stdout);
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exitStatus = { code, signal };
        resolve(this.exitStatus);
      });
    });
  }

  /** Starts the server; resolves once it runs, or fails with `starting <program>: …`. */
  static start(command: readonly string[], options: StdioChildOptions = {}): Promise<StdioChild> {
    const [program, ...args] = command;
    if (program === undefined) return Promise.reject(new ProxyError("no server command given"));
    return new Promise((resolve, reject) => {
      const child = spawn(program, args, {
        stdio: ["pipe", "pipe", "inherit"],
        detached: true,
      });
      child.once("error", (err) => reject(new ProxyError(`starting ${program}: ${osErrorText(err)}`)));
      child.once("spawn", () => resolve(new StdioChild(child, options.graceMs ?? 2000)));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Close stdin (MCP's way to ask a stdio server to exit), give the whole process group the
   * grace period to go, then SIGTERM the group, and SIGKILL it if anything is still there
   * after another grace period. The group, not just the child: an `npx` wrapper may exit
   * while the server it started lives on.
   */
  async shutdown(): Promise<void> {
    this.input.end();
    if (await this.groupGoneWithin(this.graceMs)) return;
    this.signalGroup("SIGTERM");
    if (await this.groupGoneWithin(this.graceMs)) return;
    this.signalGroup("SIGKILL");
  }

  private async groupGoneWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (this.exitStatus && !this.groupAlive()) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Whether any process of the server's group is still there (signal 0 only asks). */
  private groupAlive(): boolean {
    const pid = this.child.pid;
    if (pid === undefined) return false;
    try {
      process.kill(-pid, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === "EPERM";
    }
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already empty.
    }
  }
}
