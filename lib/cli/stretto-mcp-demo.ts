#!/usr/bin/env node
/**
 * `stretto-mcp-demo`: a tiny MCP server for trying stretto-proxy, over stdio or, with
 * `--http ADDR`, over Streamable HTTP. Exit codes: 0 when stdin ends, 1 when I/O fails,
 * 2 for a usage error.
 */
import { ABOUT, USAGE, parseDemoArgs } from "./stretto-mcp-demo-args.js";
import type { DemoOptions } from "../demo/options.js";
import { serveHttp } from "../demo/http/server.js";
import { mcpUrl, parseListenAddress } from "../demo/http/listen-address.js";
import { serveStdio } from "../demo/stdio-server.js";
import { makeWorld } from "../demo/worlds/make-world.js";
import { osErrorText } from "../util/os-errors.js";
import { VERSION } from "../version.js";

async function main(args: string[]): Promise<number> {
  const invocation = parseDemoArgs(args);
  switch (invocation.kind) {
    case "help":
      process.stdout.write(`${ABOUT}\n\n${USAGE}\n`);
      return 0;
    case "version":
      process.stdout.write(`stretto-mcp-demo ${VERSION}\n`);
      return 0;
    case "usage-error":
      process.stderr.write(`${USAGE}\n`);
      return 2;
    case "serve":
      return invocation.options.http === undefined
        ? stdio(invocation.options)
        : http(invocation.options, invocation.options.http);
  }
}

async function stdio(options: DemoOptions): Promise<number> {
  try {
    await serveStdio(makeWorld(options.world, options.listing), process.stdin, process.stdout);
    return 0;
  } catch (err) {
    process.stderr.write(`stretto-mcp-demo: ${osErrorText(err)}\n`);
    return 1;
  }
}

async function http(options: DemoOptions, addr: string): Promise<number> {
  const address = parseListenAddress(addr);
  if (address === undefined) {
    process.stderr.write(`stretto-mcp-demo: not an address to listen on: ${addr}\n`);
    return 1;
  }
  try {
    const world = makeWorld(options.world, options.listing);
    const auth = options.requireAuth === undefined ? {} : { requireAuth: options.requireAuth };
    const server = await serveHttp(world, address, auth);
    const bound = server.address();
    if (bound === null || typeof bound === "string") throw new Error("no TCP address");
    process.stdout.write(`${mcpUrl(bound.address, bound.port)}\n`);
    // Serves until the process is ended; the listening server keeps it alive.
    return new Promise<number>(() => {});
  } catch (err) {
    process.stderr.write(`stretto-mcp-demo: listening on ${addr}: ${osErrorText(err)}\n`);
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => {
  // exitCode, not exit(): let stdout finish writing to a pipe first.
  process.exitCode = code;
});
