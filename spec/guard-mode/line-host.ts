import { createInterface } from "node:readline";
import type { ChildProcess } from "node:child_process";

/** A host that writes lines as given and collects the raw lines it gets back. */
export class LineHost {
  readonly lines: string[] = [];
  private readonly watchers: Array<{ test: (l: string) => boolean; resolve: (l: string) => void }> = [];
  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on("line", (l) => {
      this.lines.push(l);
      for (const w of this.watchers.splice(0)) {
        if (w.test(l)) w.resolve(l);
        else this.watchers.push(w);
      }
    });
  }
  /** Writes one line (its `\n` added), bytes as given. */
  send(line: string | Buffer): void {
    this.child.stdin!.write(Buffer.concat([Buffer.from(line), Buffer.from("\n")]));
  }
  /** The first line (already here or still to come) that `test` accepts. */
  waitFor(test: (l: string) => boolean): Promise<string> {
    const seen = this.lines.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.watchers.push({ test, resolve }));
  }
  async end(): Promise<void> {
    this.child.stdin!.end();
    await new Promise((r) => this.child.once("close", r));
  }
}
