/** `stretto` run in this process, as the binary runs it (main with the process's streams replaced). */
import { PassThrough } from "node:stream";
import { main } from "../../lib/cli/stretto/main.js";

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export async function stretto(...args: string[]): Promise<Result> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = "";
  let stderr = "";
  out.on("data", (c: Buffer) => (stdout += c.toString()));
  err.on("data", (c: Buffer) => (stderr += c.toString()));
  const code = await main(args, { stdout: out, stderr: err, stderrIsTty: false }, "0");
  await new Promise((r) => setImmediate(r));
  return { code, stdout, stderr };
}
