/** Runs the offline `stretto` command of this checkout, as a user would from a shell. */
import { spawn } from "node:child_process";
import { NODE, STRETTO } from "./paths.js";

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function stretto(args: readonly string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [STRETTO, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
