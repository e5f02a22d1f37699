/**
 * The binaries that come with stretto: each should be on PATH and answer `--version` as this
 * stretto's version. A mismatch means two installs are mixed, and the proxy would write logs
 * or read flows another stretto made.
 */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { isProgram, onPath } from "../init/index.js";
import type { Finding, Level } from "./finding.js";

export const COMPANIONS: ReadonlyArray<{ name: string; what: string; missing: Level }> = [
  { name: "stretto-proxy", what: "MCP hosts run it to record sessions and serve flows", missing: "problem" },
  { name: "stretto-procedure", what: "it runs compiled procedures", missing: "note" },
  { name: "stretto-mcp-demo", what: "a demo MCP server, which the quickstart uses", missing: "note" },
];

/** How `--version` is waited for: a binary that hangs is no answer. */
const VERSION_TIMEOUT_MS = 10_000;

export function installText(version: string): string {
  return `It comes with stretto ${version}: install them together (README.md, "Install").`;
}

export async function checkCompanions(version: string, path: string | undefined, exe: string | undefined): Promise<Finding[]> {
  return Promise.all(COMPANIONS.map((c) => checkOne(c, version, path, exe)));
}

async function checkOne(c: (typeof COMPANIONS)[number], version: string, path: string | undefined, exe: string | undefined): Promise<Finding> {
  const install = installText(version);
  const found = onPath(c.name, path);
  if (found === undefined) {
    const beside = exe === undefined ? undefined : join(dirname(exe), c.name);
    if (beside !== undefined && isProgram(beside)) {
      return { level: c.missing, text: `${c.name} is at ${beside}, which is not on PATH (${c.what}): add its directory to PATH` };
    }
    return { level: c.missing, text: `${c.name} is not on PATH (${c.what}). ${install}` };
  }
  const line = await versionLine(found);
  if (line === undefined) {
    return { level: "problem", text: `${c.name} (${found}) does not answer \`--version\` as stretto ${version}'s does. ${install}` };
  }
  if (line === `${c.name} ${version}`) return { level: "ok", text: `${line} (${found})` };
  return { level: "problem", text: `${line} (${found}) is not stretto ${version}'s: install them together. ${install}` };
}

/** The first line of a successful `--version`, trimmed; undefined for no usable answer. */
function versionLine(program: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = execFile(program, ["--version"], { timeout: VERSION_TIMEOUT_MS, maxBuffer: 64 * 1024 }, (err, stdout) => {
      const line = String(stdout).split("\n")[0]?.trim();
      resolve(err !== null || !line ? undefined : line);
    });
    child.stdin?.end();
  });
}
