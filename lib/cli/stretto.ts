#!/usr/bin/env node
/** The `stretto` bin: see ./stretto/main.ts. */
import { main } from "./stretto/main.js";
import { VERSION } from "../version.js";

// A reader that closed the pipe (`stretto episodes dir | head`) has what it wanted.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

process.exitCode = await main(
  process.argv.slice(2),
  { stdout: process.stdout, stderr: process.stderr, stderrIsTty: process.stderr.isTTY === true },
  VERSION,
);
