/**
 * The docs can be found and walked: every page in docs/ is listed in docs/README.md (the
 * index) and in the README's Documentation table, and every relative link in README.md and
 * docs/*.md names a file that exists and, for a Markdown page, a heading it has.
 */
import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// dist/spec/docs/ → the repository.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const pages = readdirSync(join(ROOT, "docs"))
  .filter((n) => n.endsWith(".md") && n !== "README.md")
  .sort();

/** Markdown without its fenced blocks (a link or a heading inside one is not one). */
function prose(text: string): string {
  return text.replace(/^( *)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ *\2[`~]*[ \t]*$/gm, "");
}

/** The anchors GitHub gives a page's headings (a repeated heading gets `-1`, `-2`, …). */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6} +(.*?) *#* *$/gm)) {
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_ -]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

describe("the docs index and links", () => {
  it("lists every page of docs/ in docs/README.md", () => {
    const index = read("docs/README.md");
    const missing = pages.filter((p) => !index.includes(`](${p})`));
    assert.deepEqual(missing, [], `docs/README.md does not list ${missing.join(", ")}`);
  });

  it("lists every page of docs/ in the README's Documentation table", () => {
    const readme = read("README.md");
    const table = readme.slice(readme.indexOf("\n## Documentation"));
    const missing = pages.filter((p) => !table.includes(`](docs/${p})`));
    assert.deepEqual(missing, [], `README.md's Documentation table does not list ${missing.join(", ")}`);
  });

  it("has no relative link to a missing file or heading", () => {
    const broken: string[] = [];
    for (const file of ["README.md", ...pages.map((p) => `docs/${p}`), "docs/README.md"]) {
      for (const m of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
        const [path, anchor] = link.split("#", 2) as [string, string | undefined];
        const target = path === "" ? file : normalize(join(dirname(file), path));
        if (!existsSync(join(ROOT, target))) {
          broken.push(`${file}: ${link} (no ${target})`);
          continue;
        }
        if (anchor !== undefined && anchor !== "" && target.endsWith(".md") && !anchorsOf(read(target)).has(anchor)) {
          broken.push(`${file}: ${link} (no heading #${anchor} in ${target})`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });

  it("makes anchors as GitHub does", () => {
    const anchors = anchorsOf("# Serve a flow: `--flow`\n\n## The System-One model (`--oracle jev|replay|mock`)\n\n## Notes\n\n## Notes\n```\n# not a heading\n```\n");
    assert.deepEqual([...anchors], ["serve-a-flow---flow", "the-system-one-model---oracle-jevreplaymock", "notes", "notes-1"]);
  });
});
