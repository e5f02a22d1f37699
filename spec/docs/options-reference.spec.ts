import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { REFERENCE_PATH, optionsIn, optionsReference, strettoCommands } from "../../scripts/options-reference.js";

// dist/spec/docs/ → the repository.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

describe("docs/options-reference.md", function () {
  this.timeout(180_000);

  it("is what the binaries' --help prints now (regenerated in memory)", async () => {
    const fresh = await optionsReference(ROOT);
    const committed = readFileSync(join(ROOT, REFERENCE_PATH), "utf8");
    if (fresh !== committed) {
      const a = committed.split("\n");
      const b = fresh.split("\n");
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      assert.fail(
        `${REFERENCE_PATH} is stale: run make docs\n` +
          `first difference at line ${i + 1}:\n  committed: ${JSON.stringify(a[i])}\n  generated: ${JSON.stringify(b[i])}`,
      );
    }
  });

  it("covers every binary and every stretto command", () => {
    const page = readFileSync(join(ROOT, REFERENCE_PATH), "utf8");
    for (const bin of ["stretto-proxy", "stretto", "stretto-mcp-demo", "stretto-procedure"]) {
      assert.ok(page.includes(`\n## \`${bin}\`\n`), `no section for ${bin}`);
    }
    for (const command of ["episode", "episodes", "manifest", "replay", "guards", "redact", "learn", "promote", "evaluate", "flow-show", "flow-diff"]) {
      assert.ok(page.includes(`\n## \`stretto ${command}\`\n`), `no section for stretto ${command}`);
    }
  });

  it("reads the commands and options out of help texts", () => {
    const top = "Usage: stretto <command>\n\nCommands:\n  episode <log>     Print.\n  flow-diff [--x] <A> <B>\n                    Say.\n  help [command]    Help.\n\nOptions:\n  -h, --help  Print help.\n";
    assert.deepEqual(strettoCommands(top), ["episode", "flow-diff"]);
    const help = [
      "usage: demo [--world W] [--hide TOOL]",
      "      --record <DIR>   Write",
      "  -V, --version  Print the version.",
      "                    --flow-threshold, --flow-shadow (a continuation line names no option)",
    ].join("\n");
    assert.deepEqual(optionsIn(help).sort(), ["--hide", "--record", "--version", "--world"]);
  });
});
