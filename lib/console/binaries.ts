/**
 * The stretto binaries the console runs and reports: each found beside the console (the
 * `.js` files of this build, run with this node) or else on PATH, with its `--version` line.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { onPath } from "../init/index.js";

export const BINARIES = ["stretto", "stretto-proxy", "stretto-procedure", "stretto-mcp-demo"] as const;
export type BinaryName = (typeof BINARIES)[number];

export interface Found {
  path: string;
  /** How to run it: node and the script, or the program itself. */
  argv: string[];
}

export function findBinary(name: string, exe: string | undefined, path: string | undefined): Found | undefined {
  if (exe !== undefined) {
    const js = join(dirname(exe), `${name}.js`);
    if (existsSync(js)) return { path: js, argv: [process.execPath, js] };
    const plain = join(dirname(exe), name);
    if (existsSync(plain)) return { path: plain, argv: [plain] };
  }
  const on = onPath(name, path);
  return on === undefined ? undefined : { path: on, argv: [on] };
}

/** A program given by path (`--stretto PATH`). */
export function given(path: string): Found {
  return { path, argv: path.endsWith(".js") ? [process.execPath, path] : [path] };
}

/** Its `--version` line, or null when it does not answer within 20 s. */
export function versionOf(f: Found): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(f.argv[0]!, [...f.argv.slice(1), "--version"], { timeout: 20_000 }, (err, stdout) => {
      const line = String(stdout).trim().split("\n")[0] ?? "";
      resolve(err !== null || line === "" ? null : line);
    });
  });
}
