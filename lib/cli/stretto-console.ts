#!/usr/bin/env node
/** The `stretto-console` bin: `stretto console` under its own name (./stretto/console.ts). */
import { main } from "./stretto/main.js";
import { VERSION } from "../version.js";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  process.stdout.write(`stretto-console ${VERSION}\n`);
} else {
  process.exitCode = await main(
    ["console", ...argv],
    { stdout: process.stdout, stderr: process.stderr, stderrIsTty: process.stderr.isTTY === true },
    VERSION,
  );
}
