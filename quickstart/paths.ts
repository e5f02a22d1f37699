/**
 * Where the quickstart finds the binaries it drives: the compiled ones of this checkout,
 * so `make demo` needs nothing installed globally.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** dist/quickstart/ once compiled, so the checkout is two folders up. */
const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const PROXY = join(DIST, "lib/cli/stretto-proxy.js");
export const DEMO = join(DIST, "lib/cli/stretto-mcp-demo.js");
export const STRETTO = join(DIST, "lib/cli/stretto.js");
/** The quickstart's own node, so the children run on the same runtime. */
export const NODE = process.execPath;
