/**
 * Runs the commands the docs show. A fenced block whose info string is `sh test` or
 * `console test` in README.md or docs/*.md is run through bash, each block on its own in a
 * fresh empty folder (its HOME too), with stretto, stretto-proxy, stretto-mcp-demo and
 * stretto-procedure on PATH as small wrappers around the build in dist/, and stdin empty.
 *
 * - `sh test`: the whole block is one script (`set -eo pipefail`); it must exit 0.
 * - `console test`: the lines starting with `$ ` are the commands (a line ending in `\`
 *   goes on to the next); the other lines are output, not compared. Each command must exit
 *   0, except one followed by `$ echo $?` and a number: that command must exit with that
 *   number.
 *
 * Only blocks that run offline and leave nothing outside their folder are marked so; the
 * rest (a server on the internet, the user's ~/.stretto, a model's key, the build itself)
 * stay plain `sh` or `console`. docs/development.md says how to mark one.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// dist/spec/docs/ → the repository.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const BINARIES = ["stretto", "stretto-proxy", "stretto-mcp-demo", "stretto-procedure"];
const BLOCK_TIMEOUT_MS = 60_000;

export interface DocBlock {
  /** The file, relative to the repository, and the line of the opening fence. */
  file: string;
  line: number;
  kind: "sh" | "console";
  /** The block's lines, without the fences and the fence's indentation. */
  body: string[];
}

/** The fenced blocks marked `sh test` or `console test` in one Markdown text. */
export function markedBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})\s*(\S*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open;
    const close = new RegExp(`^ *${fence![0] === "`" ? "`" : "~"}{${fence!.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end]!)) end++;
    const marked = (lang === "sh" || lang === "console") && rest!.trim().split(/\s+/).includes("test");
    if (marked) {
      const body = lines.slice(i + 1, end).map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l.trimStart()));
      blocks.push({ file, line: i + 1, kind: lang as "sh" | "console", body });
    }
    i = end;
  }
  return blocks;
}

/** A shell-quoted word. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The bash script a block runs as. */
export function scriptOf(block: DocBlock): string {
  if (block.kind === "sh") return ["set -eo pipefail", ...block.body].join("\n") + "\n";
  // console: the `$ ` commands, with continuation lines, and the output after each.
  const commands: Array<{ line: number; text: string; output: string[] }> = [];
  for (let i = 0; i < block.body.length; i++) {
    const l = block.body[i]!;
    if (!l.startsWith("$ ")) {
      commands.at(-1)?.output.push(l);
      continue;
    }
    const at = block.line + 1 + i;
    let text = l.slice(2);
    while (text.endsWith("\\") && i + 1 < block.body.length) text = `${text}\n${block.body[++i]!}`;
    commands.push({ line: at, text, output: [] });
  }
  const script: string[] = [];
  for (let c = 0; c < commands.length; c++) {
    const { line, text } = commands[c]!;
    const next = commands[c + 1];
    const status = next?.text.trim() === "echo $?" ? /^\s*(\d+)\s*$/.exec(next.output[0] ?? "")?.[1] : undefined;
    const where = quote(`${block.file}:${line}: ${text.split("\n")[0]}`);
    if (status !== undefined) {
      script.push(`{ ${text}\n}; __status=$?`);
      script.push(`if [ "$__status" -ne ${status} ]; then echo ${where}" exited $__status, not ${status}" >&2; exit 1; fi`);
      c++; // the `echo $?` is the check above
    } else {
      script.push(`{ ${text}\n} || { __status=$?; echo ${where}" exited $__status" >&2; exit 1; }`);
    }
  }
  return script.join("\n") + "\n";
}

/** README.md and every docs/*.md, with their marked blocks. */
function allBlocks(): DocBlock[] {
  const files = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((n) => n.endsWith(".md")).sort().map((n) => `docs/${n}`)];
  return files.flatMap((f) => markedBlocks(f, readFileSync(join(ROOT, f), "utf8")));
}

/** A folder of wrappers that run the built binaries, as `npm install -g .` would put them on PATH. */
function binFolder(under: string): string {
  const bin = join(under, "bin");
  mkdirSync(bin);
  for (const name of BINARIES) {
    const path = join(bin, name);
    writeFileSync(path, `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(join(ROOT, "dist", "lib", "cli", `${name}.js`))} "$@"\n`);
    chmodSync(path, 0o755);
  }
  return bin;
}

function runBlock(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile("bash", ["-c", script], { cwd, env, timeout: BLOCK_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : null) : 0;
      done({ code, stdout, stderr: err?.killed ? `${stderr}\n(killed after ${BLOCK_TIMEOUT_MS} ms)` : stderr });
    });
    child.stdin?.end();
  });
}

describe("the commands in the docs", function () {
  this.timeout(BLOCK_TIMEOUT_MS + 30_000);

  let scratch: string;
  let bin: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), "stretto-doc-commands-"));
    bin = binFolder(scratch);
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it("reads the marked blocks and the exit status a console block expects", () => {
    const md = [
      "```sh",
      "not marked",
      "```",
      "  ```console test",
      "  $ false \\",
      "    || true",
      "  output",
      "  $ exit 3",
      "  $ echo $?",
      "  3",
      "  ```",
    ].join("\n");
    const [block, ...others] = markedBlocks("x.md", md);
    assert.equal(others.length, 0);
    assert.deepEqual(block, { file: "x.md", line: 4, kind: "console", body: ["$ false \\", "  || true", "output", "$ exit 3", "$ echo $?", "3"] });
    const script = scriptOf(block!);
    assert.match(script, /\{ false \\\n {2}\|\| true\n\} \|\|/);
    assert.match(script, /\{ exit 3\n\}; __status=\$\?\nif \[ "\$__status" -ne 3 \]/);
    assert.doesNotMatch(script, /echo \$\?/);
  });

  const blocks = allBlocks();

  it("marks some of them runnable", () => {
    assert.ok(blocks.length >= 5, `only ${blocks.length} blocks are marked sh test or console test`);
  });

  for (const block of blocks) {
    it(`${block.file}:${block.line} (${block.kind})`, async () => {
      const dir = mkdtempSync(join(scratch, "block-"));
      const home = join(dir, ".home");
      mkdirSync(home);
      const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env["PATH"] ?? ""}`, HOME: home };
      delete env["TYPESAFE_API_KEY"];
      delete env["TYPESAFE_API_KEY_FILE"];
      delete env["STRETTO_SESSION"];
      const result = await runBlock(scriptOf(block), dir, env);
      assert.equal(
        result.code,
        0,
        `${block.file}:${block.line} exited ${result.code}\n--- stderr\n${result.stderr}\n--- stdout\n${result.stdout.slice(-4000)}`,
      );
    });
  }
});
