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
 * Blocks see `$STRETTO_REPO`, the repository (built), for its fixtures: a procedure, an
 * example plugin, the HTTP echo server.
 *
 * Only blocks that run offline and leave nothing outside their folder are marked so. Every
 * other `sh`/`console` block (the build, the suite, the benchmarks, `npm install -g`) must
 * be listed in ELSEWHERE below with a cheaper check of what it claims: a Makefile target's
 * recipe, a dry run, `npm pack --dry-run`. A block that is neither fails the spec.
 * docs/development.md says how to mark one.
 */
import { strict as assert } from "node:assert";
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// dist/spec/docs/ → the repository.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const BINARIES = ["stretto", "stretto-proxy", "stretto-mcp-demo", "stretto-procedure", "stretto-console"];
const BLOCK_TIMEOUT_MS = 60_000;

export interface DocBlock {
  /** The file, relative to the repository, and the line of the opening fence. */
  file: string;
  line: number;
  kind: "sh" | "console";
  /** The block's lines, without the fences and the fence's indentation. */
  body: string[];
}

/** Every fenced `sh` or `console` block in one Markdown text, and whether it is marked `test`. */
export function shellBlocks(file: string, text: string): Array<DocBlock & { marked: boolean }> {
  const lines = text.split("\n");
  const blocks: Array<DocBlock & { marked: boolean }> = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})\s*(\S*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open;
    const close = new RegExp(`^ *${fence![0] === "`" ? "`" : "~"}{${fence!.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end]!)) end++;
    if (lang === "sh" || lang === "console") {
      const marked = rest!.trim().split(/\s+/).includes("test");
      const body = lines.slice(i + 1, end).map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l.trimStart()));
      blocks.push({ file, line: i + 1, kind: lang, body, marked });
    }
    i = end;
  }
  return blocks;
}

/** The fenced blocks marked `sh test` or `console test` in one Markdown text. */
export function markedBlocks(file: string, text: string): DocBlock[] {
  return shellBlocks(file, text)
    .filter((b) => b.marked)
    .map(({ marked: _, ...b }) => b);
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

/** README.md and every docs/*.md. */
function docFiles(): string[] {
  return ["README.md", ...readdirSync(join(ROOT, "docs")).filter((n) => n.endsWith(".md")).sort().map((n) => `docs/${n}`)];
}

/** Every `sh`/`console` block of README.md and docs/*.md. */
function allShellBlocks(): Array<DocBlock & { marked: boolean }> {
  return docFiles().flatMap((f) => shellBlocks(f, readFileSync(join(ROOT, f), "utf8")));
}

/** README.md and every docs/*.md, with their marked blocks. */
function allBlocks(): DocBlock[] {
  return docFiles().flatMap((f) => markedBlocks(f, readFileSync(join(ROOT, f), "utf8")));
}

// ---- The blocks that are not run, and how what they say is checked instead.

const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");

/** A Makefile target's prerequisites and recipe lines (tabs and `@` dropped). */
function makeTarget(name: string): { prerequisites: string[]; recipe: string[] } {
  const lines = read("Makefile").split("\n");
  const at = lines.findIndex((l) => l.startsWith(`${name}:`) && !l.startsWith(`${name}:=`));
  assert.ok(at >= 0, `the Makefile has no target ${name}`);
  const recipe: string[] = [];
  for (let i = at + 1; i < lines.length && lines[i]!.startsWith("\t"); i++) recipe.push(lines[i]!.slice(1).replace(/^@/, ""));
  return { prerequisites: lines[at]!.slice(name.length + 1).trim().split(/\s+/).filter(Boolean), recipe };
}

/** A command's text without its trailing `# comment`. */
function command(line: string): string {
  return line.replace(/\s+#\s.*$/, "").trim();
}

/** The block's command lines (comments dropped, `\` continuations joined). */
function commandsOf(block: DocBlock): string[] {
  return block.body
    .join("\n")
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map(command)
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/** Runs a program in the repository; its stdout. Throws (with stderr) on a non-zero exit. */
function inRepo(program: string, args: string[]): string {
  return execFileSync(program, args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
}

/** `make test` is what CI runs, and runs every spec. */
function checkMakeTest(): void {
  assert.match(read(".ci/run"), /^make test$/m, ".ci/run does not run `make test`");
  const test = makeTarget("test");
  assert.deepEqual(test.prerequisites, ["build", "check"]);
  assert.deepEqual(test.recipe, ["bash scripts/run-specs.sh"]);
  assert.match(inRepo("make", ["-n", "test"]), /^bash scripts\/run-specs\.sh$/m);
  // The script runs the whole suite (mocha with the repository's config) in its own temporary folder.
  assert.match(read("scripts/run-specs.sh"), /^TMPDIR=\$scratch npx mocha "\$@"$/m);
  const mocharc = JSON.parse(read(".mocharc.json")) as { spec?: string[] };
  assert.deepEqual(mocharc.spec, ["dist/spec/**/*.spec.js"]);
}

/** `make demo` runs the quickstart, the same file spec/quickstart runs. */
function checkMakeDemo(): void {
  const demo = makeTarget("demo");
  assert.deepEqual(demo, { prerequisites: ["build"], recipe: ["node dist/quickstart/main.js"] });
  const spec = read("spec/quickstart/quickstart.spec.ts");
  assert.match(spec, /const MAIN = "dist\/quickstart\/main\.js";/, "spec/quickstart no longer runs dist/quickstart/main.js");
  assert.ok(existsSync(join(ROOT, "dist/quickstart/main.js")));
}

/** A mocha command line, run with `--dry-run`: its files load and it selects at least one test. */
function checkMocha(line: string): void {
  const args = line.split(/\s+/);
  assert.deepEqual(args.slice(0, 2), ["npx", "mocha"], line);
  assert.ok(args.includes("--no-config"), `${line}: without --no-config it runs the whole suite`);
  const out = inRepo("npx", [...args.slice(1), "--dry-run", "--reporter", "dot"]);
  const passing = /(\d+) passing/.exec(out);
  assert.ok(passing && Number(passing[1]) > 0, `${line} --dry-run selects no test:\n${out}`);
}

/** A benchmark command: the files, the runner's selection and the options it names exist. */
function checkBenchLine(line: string): void {
  if (line === "make bench") {
    assert.deepEqual(makeTarget("bench").recipe, ["node dist/bench/run.js"]);
    return;
  }
  if (line === "npx tsc -p tsconfig.json") return;
  const m = /^node (?:--expose-gc )?dist\/bench\/([\w.-]+)\.js(.*)$/.exec(line);
  assert.ok(m, `not a benchmark command: ${line}`);
  const [, name, rest] = m;
  const source = `bench/${name}.ts`;
  assert.ok(existsSync(join(ROOT, source)), `${source} does not exist`);
  assert.ok(existsSync(join(ROOT, "dist/bench", `${name}.js`)), `dist/bench/${name}.js is not built`);
  const args = rest!.trim().split(/\s+/).filter(Boolean);
  if (name === "run") {
    const benches = readdirSync(join(ROOT, "bench")).filter((f) => f.endsWith(".bench.ts"));
    for (const a of args) assert.ok(benches.some((f) => f.includes(a)), `run.js ${a} selects no bench`);
    return;
  }
  const text = read(source);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith("--")) assert.ok(text.includes(`"${a}"`), `${source} takes no ${a}`);
    if (a === "--only") {
      // A group is `<payload>/<mode>` of the bench's labels, spaces dropped.
      const labels = new Set([...text.matchAll(/label: "([^"]+)"/g)].map((x) => x[1]!.replace(/ /g, "").toLowerCase()));
      const parts = args[i + 1]!.toLowerCase().split("/");
      assert.ok(parts.length === 2 && parts.every((p) => labels.has(p)), `${source} has no group ${args[i + 1]}`);
    }
  }
}

interface Elsewhere {
  file: string;
  /** The block's first line, as written. */
  first: string;
  how: string;
  check: () => void;
}

const ELSEWHERE: Elsewhere[] = [
  {
    file: "README.md",
    first: "make demo   # installs, builds, and runs the quickstart: record, learn, review, serve (no key)",
    how: "`make demo` is the Makefile target spec/quickstart runs (node dist/quickstart/main.js); `make test` is what .ci/run runs (scripts/run-specs.sh: every spec, in a temporary folder that must be left empty)",
    check: () => {
      const block = allShellBlocks().find((b) => b.file === "README.md" && b.body[0]!.startsWith("make demo"))!;
      assert.deepEqual(commandsOf(block), ["make demo", "make test"]);
      checkMakeDemo();
      checkMakeTest();
    },
  },
  {
    file: "README.md",
    first: "npm ci && npm run build",
    how: "`npm run build` is tsc, the flow validator, then the console UI's vite build; `npm pack --dry-run` packs the bins the comment names, each with a node shebang, the precompiled flow validator and the built UI",
    check: () => {
      const block = allShellBlocks().find((b) => b.file === "README.md" && b.body[0] === "npm ci && npm run build")!;
      const pkg = JSON.parse(read("package.json")) as { scripts: Record<string, string>; bin: Record<string, string> };
      assert.equal(pkg.scripts["build"], "tsc -p tsconfig.json && node dist/scripts/precompile-validators.js && vite build --config console/vite.config.ts --logLevel warn");
      const named = [...block.body[1]!.matchAll(/stretto[\w-]*/g)].map((x) => x[0]).sort();
      assert.deepEqual(Object.keys(pkg.bin).sort(), named);
      assert.deepEqual([...BINARIES].sort(), named);
      const packed = JSON.parse(inRepo("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"])) as Array<{ files: Array<{ path: string }> }>;
      const paths = new Set(packed[0]!.files.map((f) => f.path));
      for (const [name, path] of Object.entries(pkg.bin)) {
        assert.ok(paths.has(path.replace(/^\.\//, "")), `npm pack leaves out ${name}'s ${path}`);
        assert.match(read(path), /^#!\/usr\/bin\/env node\n/, `${path} has no node shebang`);
      }
      assert.ok(paths.has("README.md"));
      assert.ok(paths.has("dist/console/index.html"), "npm pack leaves out the console's UI");
      assert.ok(paths.has("dist/lib/flow/ir/flow-validator.precompiled.cjs"), "npm pack leaves out the precompiled flow validator");
    },
  },
  {
    file: "docs/development.md",
    first: "make build                 # npm ci when package-lock.json changed, then tsc, the flow validator, chmod +x the bins",
    how: "`make -n build` exits 0 and the build stamp's recipe is `npx tsc -p tsconfig.json`, the flow validator's precompiling, then chmod; `tsc --showConfig` reads tsconfig.json (outDir dist)",
    check: () => {
      inRepo("make", ["-n", "build"]);
      assert.deepEqual(makeTarget("$(BUILD_STAMP)").recipe, [
        "npx tsc -p tsconfig.json",
        "node dist/scripts/precompile-validators.js",
        "chmod +x dist/lib/cli/*.js",
        "touch $(BUILD_STAMP)",
      ]);
      const config = JSON.parse(inRepo("npx", ["tsc", "-p", "tsconfig.json", "--showConfig"])) as { compilerOptions: { outDir?: string } };
      assert.match(config.compilerOptions.outDir ?? "", /(^|\/)dist$/);
    },
  },
  {
    file: "docs/development.md",
    first: "make test    # build, make check, then every spec",
    how: "`.ci/run` is `make test`; the target is build, check, `npx mocha` over dist/spec/**/*.spec.js (`make -n test`)",
    check: checkMakeTest,
  },
  {
    file: "docs/development.md",
    first: "npx mocha --no-config --timeout 60000 dist/spec/record/retention.spec.js",
    how: "each line run with `--dry-run`: the files load and select at least one test",
    check: () => {
      const block = allShellBlocks().find((b) => b.file === "docs/development.md" && b.body[0]!.startsWith("npx mocha --no-config"))!;
      for (const line of commandsOf(block)) checkMocha(line);
    },
  },
  {
    file: "docs/development.md",
    first: "npx depcruise lib --config .dependency-cruiser.cjs   # the layer rules",
    how: "exactly the recipe of `make check`, which `make test` (CI) runs",
    check: () => {
      const block = allShellBlocks().find((b) => b.file === "docs/development.md" && b.body[0]!.startsWith("npx depcruise"))!;
      assert.deepEqual(makeTarget("check").recipe, commandsOf(block));
      assert.deepEqual(makeTarget("test").prerequisites, ["build", "check"]);
    },
  },
  {
    file: "docs/quickstart.md",
    first: "npx mocha --no-config --timeout 120000 dist/spec/quickstart/quickstart.spec.js",
    how: "run with `--dry-run`; the spec itself runs in `make test`",
    check: () => checkMocha("npx mocha --no-config --timeout 120000 dist/spec/quickstart/quickstart.spec.js"),
  },
  {
    file: "docs/quickstart.md",
    first: "stretto-proxy --record DIR/sessions --domain shop --context DIR/conversations/cN.jsonl \\",
    how: "what quickstart/agent.ts runs for each customer (run by spec/quickstart in `make test`): the same options",
    check: () => {
      const agent = read("quickstart/agent.ts");
      for (const text of [`"--record", where.record,`, `"--domain", "shop",`, `"--context", where.conversation,`, `"--", NODE, DEMO, "--world", "retail",`]) {
        assert.ok(agent.includes(text), `quickstart/agent.ts no longer passes ${text}`);
      }
    },
  },
  {
    file: "docs/procedure.md",
    first: "make demo-procedure",
    how: "the target runs scripts/demo-procedure.sh, which runs the procedure file the next (marked) block runs",
    check: () => {
      assert.deepEqual(makeTarget("demo-procedure").recipe, ["bash scripts/demo-procedure.sh"]);
      const script = read("scripts/demo-procedure.sh");
      const file = /^PROCEDURE=(\S+)$/m.exec(script)?.[1];
      assert.ok(file && existsSync(join(ROOT, file)), "scripts/demo-procedure.sh names no procedure file");
      const marked = allBlocks().filter((b) => b.file === "docs/procedure.md").map((b) => b.body.join("\n"));
      assert.ok(marked.some((b) => b.includes(`$STRETTO_REPO/${file}`)), `no marked block in docs/procedure.md runs ${file}`);
    },
  },
  {
    file: "docs/http-upstream.md",
    first: "stretto-proxy --record ~/.stretto/logs --upstream https://example.com/mcp",
    how: "needs a server on the internet; the next (marked) block runs the same command against the local echo fixture",
    check: () => {
      const marked = allBlocks().filter((b) => b.file === "docs/http-upstream.md").map((b) => b.body.join("\n"));
      assert.ok(marked.some((b) => /stretto-proxy --record logs --upstream "\$\(cat url\)"/.test(b)));
    },
  },
  {
    file: "docs/http-upstream.md",
    first: "npx tsc -p tsconfig.json",
    how: "the files it names exist, and spec/http/conformance.spec.ts runs the same harness, shim, host and `sse-retry`",
    check: () => {
      for (const f of [
        "dist/fixtures/http/conformance-sdk-shim.js",
        "node_modules/@modelcontextprotocol/conformance/dist/index.js",
        "dist/fixtures/http/conformance-host.js",
      ]) {
        assert.ok(existsSync(join(ROOT, f)), `${f} does not exist`);
      }
      const spec = read("spec/http/conformance.spec.ts");
      for (const text of ["conformance-sdk-shim.js", "@modelcontextprotocol/conformance/dist/index.js", "conformance-host.js", `"--scenario"`, `scenario("sse-retry")`]) {
        assert.ok(spec.includes(text), `spec/http/conformance.spec.ts does not use ${text}`);
      }
    },
  },
  ...[
    ["docs/benchmarks-learn.md", "make bench                                        # every benchmark, this one included"],
    ["docs/benchmarks.md", "npx tsc -p tsconfig.json"],
    ["docs/benchmarks.md", "node --expose-gc dist/bench/flow-latency.bench.js       # a few seconds"],
  ].map(
    ([file, first]): Elsewhere => ({
      file: file!,
      first: first!,
      how: "benchmarks take minutes: each file exists and is built, `make bench` is `node dist/bench/run.js`, the runner's names select a bench, the options and groups are the bench's own",
      check: () => {
        const block = allShellBlocks().find((b) => b.file === file && b.body[0] === first)!;
        for (const line of commandsOf(block)) checkBenchLine(line);
      },
    }),
  ),
];

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
    const script = scriptOf(block);
    assert.match(script, /\{ false \\\n {2}\|\| true\n\} \|\|/);
    assert.match(script, /\{ exit 3\n\}; __status=\$\?\nif \[ "\$__status" -ne 3 \]/);
    assert.doesNotMatch(script, /echo \$\?/);
  });

  const blocks = allBlocks();

  it("marks some of them runnable", () => {
    assert.ok(blocks.length >= 10, `only ${blocks.length} blocks are marked sh test or console test`);
  });

  it("runs every other sh/console block or checks it in ELSEWHERE", () => {
    const key = (file: string, first: string): string => `${file}\n${first}`;
    const listed = new Map(ELSEWHERE.map((e) => [key(e.file, e.first), e]));
    const unmarked = allShellBlocks().filter((b) => !b.marked);
    const missing = unmarked.filter((b) => !listed.has(key(b.file, b.body[0] ?? ""))).map((b) => `${b.file}:${b.line}`);
    assert.deepEqual(missing, [], "blocks neither marked `test` nor listed in ELSEWHERE (mark them, or add a check)");
    const found = new Set(unmarked.map((b) => key(b.file, b.body[0] ?? "")));
    const stale = ELSEWHERE.filter((e) => !found.has(key(e.file, e.first))).map((e) => `${e.file}: ${e.first}`);
    assert.deepEqual(stale, [], "ELSEWHERE lists blocks that are gone or now marked");
  });

  for (const e of ELSEWHERE) {
    it(`${e.file}: ${command(e.first)} (not run: ${e.how})`, () => e.check());
  }

  for (const block of blocks) {
    it(`${block.file}:${block.line} (${block.kind})`, async () => {
      const dir = mkdtempSync(join(scratch, "block-"));
      const home = join(dir, ".home");
      mkdirSync(home);
      const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env["PATH"] ?? ""}`, HOME: home, STRETTO_REPO: ROOT };
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
