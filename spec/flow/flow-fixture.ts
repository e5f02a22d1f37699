/** The published flow fixture, read from ../shared/fixtures/flows relative to the repo root. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The published flow (learned from five retail sessions), beside the repository (from dist/spec/flow/). */
export const FIXTURE_PATH = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../shared/fixtures/flows/retail-5-sessions.flow.json");

/** The fixture's text, or undefined when the shared folder is absent. */
export function fixtureText(): string | undefined {
  return existsSync(FIXTURE_PATH) ? readFileSync(FIXTURE_PATH, "utf8") : undefined;
}

/** Skips the calling suite with a clear message when the fixture folder is absent. */
export function requireFixture(ctx: Mocha.Context): string {
  const text = fixtureText();
  if (text === undefined) {
    console.warn(`skipping: ${FIXTURE_PATH} is absent`);
    ctx.skip();
  }
  return text;
}
