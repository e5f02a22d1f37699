#!/usr/bin/env node
/**
 * A transparent tap between a host and the process it starts, so a spec can see the exact
 * bytes on the host's side of the wire:
 *
 *   node wire-tap.js <dir> -- <command> [args…]
 *
 * Starts the command (stderr inherited), relays stdin and stdout unchanged, and writes
 * `<dir>/host-sent.bin` (every byte the host wrote), `<dir>/host-received.bin` (every byte
 * the host was given) and, once the command has ended, `<dir>/exit.json` (`{code, signal}`).
 * Exits like the command. A SIGTERM or SIGINT to the tap is passed on to the command.
 */
import { spawn } from "node:child_process";
import { openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

const [dir, dashes, command, ...args] = process.argv.slice(2);
if (dir === undefined || dashes !== "--" || command === undefined) {
  process.stderr.write("usage: wire-tap <dir> -- <command> [args…]\n");
  process.exit(2);
}

const sent = openSync(join(dir, "host-sent.bin"), "w");
const received = openSync(join(dir, "host-received.bin"), "w");
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

process.stdin.on("data", (chunk: Buffer) => {
  writeSync(sent, chunk);
  child.stdin.write(chunk);
});
process.stdin.on("end", () => child.stdin.end());
child.stdin.on("error", () => {});

child.stdout.on("data", (chunk: Buffer) => {
  writeSync(received, chunk);
  process.stdout.write(chunk);
});
process.stdout.on("error", () => {});

for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => child.kill(signal));

child.once("close", (code, signal) => {
  writeFileSync(join(dir, "exit.json"), JSON.stringify({ code, signal }));
  process.stdout.write("", () => process.exit(code ?? 128));
});
