/**
 * What the console's browser specs share: the real `stretto console` over a copy of the
 * fixture data directory, Debian's Chromium driven by playwright-core (never a downloaded
 * browser), a screenshot per page into test-output/console/, and axe-core's check.
 */
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import type { Page } from "playwright-core";
import { DIST, NODE, ROOT, start, tempDir } from "../helpers/processes.js";

export const CHROMIUM = "/usr/bin/chromium";
export const CONSOLE = join(DIST, "lib/cli/stretto-console.js");
/** The fixture data directory (scripts/console-fixtures.ts makes it). */
export const FIXTURE_DATA = join(ROOT, "fixtures/console");
export const SHOTS = join(ROOT, "test-output/console");
export const DOC_SHOTS = join(ROOT, "docs/console-screenshots");
export const TOKEN = "c0ffee".repeat(10) + "beef";

export interface RunningConsole {
  child: ChildProcess;
  data: string;
  /** `http://127.0.0.1:{port}/` */
  url: string;
  stderr: () => string;
}

/** A copy of the fixture data directory, so a spec may change it. */
export function copyFixtureData(): string {
  const data = join(tempDir("stretto-console-ui-"), "data");
  cpSync(process.env.CONSOLE_FIXTURE_DIR ?? FIXTURE_DATA, data, { recursive: true });
  return data;
}

/** A folder with `stretto-mcp-demo` as a wrapper around the build, for PATH: the fixture registry names it. */
function binDir(): string {
  const bin = tempDir("stretto-console-bin-");
  const demo = join(bin, "stretto-mcp-demo");
  writeFileSync(demo, `#!/bin/sh\nexec '${NODE}' '${join(DIST, "lib/cli/stretto-mcp-demo.js")}' "$@"\n`);
  chmodSync(demo, 0o755);
  return bin;
}

/** Starts `stretto console` on a free port with a known token; resolves once it prints its URL. */
export function startConsole(data: string, extra: string[] = []): Promise<RunningConsole> {
  const child = start(NODE, [CONSOLE, "--data", data, "--listen", "127.0.0.1:0", "--token", TOKEN, "--stretto", join(DIST, "lib/cli/stretto.js"), ...extra], {
    env: { ...process.env, PATH: `${binDir()}:${process.env.PATH ?? ""}`, STRETTO_CONSOLE_TOKEN: "", BROWSER: "" },
  });
  let err = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stretto console did not print its URL in 15 s:\n${err}`)), 15000);
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (c: string) => {
      err += c;
      const m = /open (http:\/\/[^\s?]+)/.exec(err);
      if (m?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ child, data, url: m[1], stderr: () => err });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`stretto console exited (${code}) before printing its URL:\n${err}`));
    });
  });
}

/** The pages docs/console.md shows. */
const DOC_PAGES = new Set(["overview", "session-timeline", "session-refusal", "flow", "server", "job", "flows-dark"]);

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  // `CONSOLE_DOC_SHOTS=1` refreshes the guide's screenshots (docs/console.md) from the same pages.
  if (process.env.CONSOLE_DOC_SHOTS === "1" && DOC_PAGES.has(name)) {
    mkdirSync(DOC_SHOTS, { recursive: true });
    await page.screenshot({ path: join(DOC_SHOTS, `${name}.png`) });
  }
}

export interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }

const axeSource = readFileSync(join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");

/**
 * axe-core's violations of impact serious or critical on the page as it is. The library is
 * evaluated through the DevTools protocol, which the page's CSP (no inline script) does not
 * govern, so the check does not need the CSP switched off.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate("typeof window.axe === 'object'");
  if (loaded !== true) await page.evaluate(axeSource);
  const result = await page.evaluate<{ violations: AxeViolation[] }>("window.axe.run(document, { resultTypes: ['violations'] })");
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

export function describeViolations(vs: AxeViolation[]): string {
  return vs.map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`).join("\n");
}
