#!/usr/bin/env node
/**
 * The floor of the stdio benchmark: the least a Node process can do to sit between a host
 * and a stdio server. `node bare-relay.js -- <command…>` starts the command and pipes its
 * stdin and stdout through with `stream.pipe` (which honours backpressure), with no line
 * handling, no parsing and no recording. Whatever stretto-proxy costs above this is the
 * price of its bus.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";

const sep = process.argv.indexOf("--");
const [program, ...args] = sep === -1 ? [] : process.argv.slice(sep + 1);
if (program === undefined) {
  process.stderr.write("usage: bare-relay -- <command…>\n");
  process.exit(2);
}

const child = spawn(program, args, { stdio: ["pipe", "pipe", "inherit"] });
child.stdin.on("error", () => undefined); // EPIPE once the server is gone: not our concern
process.stdout.on("error", () => undefined);
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);

let status: number | undefined;
let outputEnded = false;
const finish = () => {
  if (status === undefined || !outputEnded) return;
  const code = status;
  if (process.stdout.writableLength === 0) process.exit(code);
  process.stdout.once("drain", () => process.exit(code));
};
child.stdout.once("end", () => {
  outputEnded = true;
  finish();
});
child.once("exit", (code, signal) => {
  status = code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0));
  finish();
});
child.once("error", (err) => {
  process.stderr.write(`bare-relay: starting ${program}: ${err.message}\n`);
  process.exit(125);
});
