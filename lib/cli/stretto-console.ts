#!/usr/bin/env node
/** The `stretto-console` bin: `stretto console` under its own name (./stretto/console.ts). */
import { main } from "./stretto/main.js";
import { VERSION } from "../version.js";

process.exitCode = await main(
  ["console", ...process.argv.slice(2)],
  { stdout: process.stdout, stderr: process.stderr, stderrIsTty: process.stderr.isTTY === true },
  VERSION,
);
