/**
 * `stretto completions bash|zsh|fish`: every option each binary's `--help` lists is in each
 * shell's script, under the right binary and command; bash, run for real, completes options,
 * commands and choices; the zsh and fish scripts (no zsh or fish here to run them) have the
 * structure each shell reads: quotes that close, a spec or a `complete` line per option.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "../../lib/cli/stretto/command.js";
import { loadCommands } from "../../lib/cli/stretto/commands.js";
import { DEMO, NODE, PROXY, STRETTO, cleanTemp, run, tempDir } from "../helpers/processes.js";
import { inProcess } from "../init/init-helpers.js";

const PROCEDURE = PROXY.replace("stretto-proxy.js", "stretto-procedure.js");
const SHELLS = ["bash", "zsh", "fish"] as const;

/** The options a help text lists, one a line (`  --record <DIR>  …`, `  -h, --help …`). */
function listed(help: string): string[] {
  const found = new Set<string>();
  for (const line of help.split("\n")) {
    const m = /^\s+(?:-[A-Za-z], )?(--[a-z][a-z0-9-]*)(?=[ =<]|$)/.exec(line);
    if (m) found.add(m[1]!);
  }
  return [...found];
}

describe("stretto completions", function () {
  this.timeout(60_000);
  after(cleanTemp);

  const scripts = new Map<string, string>();
  /** Each binary's options as its --help lists them; stretto's by command. */
  const helps = new Map<string, string[]>();
  let COMMANDS: Command[] = [];

  before(async () => {
    COMMANDS = await loadCommands();
    const bash = await run(NODE, [STRETTO, "completions", "bash"]);
    assert.equal(bash.code, 0, bash.stderr);
    scripts.set("bash", bash.stdout.toString("utf8"));
    for (const shell of ["zsh", "fish"]) scripts.set(shell, (await inProcess(["completions", shell])).stdout);
    for (const [name, script] of [["stretto-proxy", PROXY], ["stretto-procedure", PROCEDURE]] as const) {
      helps.set(name, listed((await run(NODE, [script, "--help"])).stdout.toString("utf8")));
    }
    // The demo's help is its usage line: `[--world echo|retail|telecom] [--hide TOOL] …`.
    const demo = (await run(NODE, [DEMO, "--help"])).stdout.toString("utf8");
    helps.set("stretto-mcp-demo", [...new Set(demo.match(/--[a-z][a-z0-9-]*/g))]);
    for (const c of COMMANDS) helps.set(`stretto ${c.name}`, listed((await inProcess(["help", c.name])).stdout));
  });

  it("refuses a shell it does not know (exit 2)", async () => {
    const r = await run(NODE, [STRETTO, "completions", "tcsh"]);
    assert.equal(r.code, 2);
    assert.ok(r.stderr.startsWith("stretto: completions knows bash, zsh and fish, not tcsh\n"), r.stderr);
  });

  it("lists every option each --help lists, under its binary and command, in each shell's script", () => {
    assert.ok(helps.get("stretto-proxy")!.includes("--record") && helps.get("stretto-mcp-demo")!.includes("--world"));
    assert.ok(helps.get("stretto init")!.includes("--upstream-header"));
    for (const shell of SHELLS) {
      const script = scripts.get(shell)!;
      for (const [who, options] of helps) {
        const part = section(shell, script, who);
        for (const o of options) assert.ok(mentions(shell, part, o), `${shell}: ${who} ${o} is missing`);
      }
    }
  });

  it("bash completes options, commands and choices", () => {
    const dir = tempDir("stretto-completions-");
    const file = join(dir, "stretto.bash");
    writeFileSync(file, scripts.get("bash")!);
    const cases: { words: string[]; fn: string; want: string[] }[] = [];
    // Each binary also takes --version, which the demo's usage line leaves out.
    const options = (who: string) => [...new Set([...helps.get(who)!, "--help", "--version"])];
    for (const [who, fn] of [["stretto-proxy", "_stretto_proxy"], ["stretto-procedure", "_stretto_procedure"], ["stretto-mcp-demo", "_stretto_mcp_demo"]] as const) {
      for (const o of options(who)) cases.push({ words: [who, o], fn, want: options(who).filter((x) => x.startsWith(o)) });
    }
    for (const c of COMMANDS) {
      // What the command takes (its help may name some only in prose).
      const own = [...(c.valueOptions ?? []), ...(c.flagOptions ?? []), "--help"];
      for (const o of own) cases.push({ words: ["stretto", c.name, o], fn: "_stretto", want: own.filter((x) => x.startsWith(o)) });
    }
    const names = [...COMMANDS.map((c) => c.name), "help"];
    cases.push(
      { words: ["stretto", "fl"], fn: "_stretto", want: names.filter((n) => n.startsWith("fl")) },
      { words: ["stretto", "help", "in"], fn: "_stretto", want: names.filter((n) => n.startsWith("in") && n !== "help") },
      { words: ["stretto", "init", "--host", "c"], fn: "_stretto", want: ["claude-code", "claude-desktop", "cursor"] },
      { words: ["stretto", "completions", ""], fn: "_stretto", want: ["bash", "zsh", "fish"] },
      { words: ["stretto", "init", "--domain", "x", "--confirm-judge", ""], fn: "_stretto", want: ["log", "enforce"] },
      { words: ["stretto-mcp-demo", "--world", ""], fn: "_stretto_mcp_demo", want: ["echo", "retail", "telecom"] },
      // A value that is a folder or a file: nothing, so bash falls back to file names.
      { words: ["stretto-proxy", "--record", ""], fn: "_stretto_proxy", want: [] },
      { words: ["stretto-proxy", "--record", "logs", "--", "bas"], fn: "_stretto_proxy", want: ["bash"] },
      { words: ["stretto-proxy", "--", "npx", "--rec"], fn: "_stretto_proxy", want: [] },
    );
    const program = [
      `source ${JSON.stringify(file)}`,
      ...cases.map((c) => `COMP_WORDS=(${c.words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${c.words.length - 1}; COMPREPLY=(); ${c.fn} "${c.words[0]}"; printf '%s\\n' "\${COMPREPLY[*]}"`),
    ].join("\n");
    // PATH is this one's: `compgen -c` lists the programs on it (bash among them).
    const out = execFileSync("bash", ["--norc", "--noprofile", "-c", program], { encoding: "utf8" }).split("\n");
    cases.forEach((c, i) => {
      const got = [...new Set(out[i]!.split(" ").filter((w) => w !== ""))];
      if (c.words.at(-1) === "bas") assert.ok(got.includes("bash"), `${c.words.join(" ")} → ${out[i]}`);
      else assert.deepEqual(got.sort(), [...c.want].sort(), c.words.join(" "));
    });
  });

  it("zsh: a #compdef line, compdef when sourced, an _arguments spec per command, quotes that close", () => {
    const z = scripts.get("zsh")!;
    assert.ok(z.startsWith("#compdef stretto stretto-proxy stretto-mcp-demo stretto-procedure\n"));
    assert.ok(z.includes("  compdef _stretto_completions stretto stretto-proxy stretto-mcp-demo stretto-procedure\n"));
    for (const c of COMMANDS) assert.match(z, new RegExp(`^ {4}${c.name}\\)\\n {6}_arguments -S`, "m"), c.name);
    assert.match(z, /'\(-h --help\)'\{-h,--help\}'\[Print help\]'/);
    assert.ok(z.includes("'*--world:echo|retail|telecom:(echo retail telecom)'"));
    assertQuotesClose(z.replaceAll("'\\''", ""), "zsh");
  });

  it("fish: a complete line per option of each binary and command, quotes that close", () => {
    const f = scripts.get("fish")!;
    for (const line of f.split("\n")) assert.ok(line === "" || line.startsWith("#") || /^complete -c stretto(-proxy|-mcp-demo|-procedure)? /.test(line), line);
    assert.ok(f.includes("complete -c stretto -n '__fish_seen_subcommand_from init' -l host -x -a 'claude-code claude-desktop cursor vscode'"));
    assertQuotesClose(f.replace(/\\[\\']/g, ""), "fish");
  });
});

/** The part of a script that completes one binary, or one `stretto` command. */
function section(shell: (typeof SHELLS)[number], script: string, who: string): string {
  const [bin, command] = who.split(" ") as [string, string | undefined];
  if (shell === "fish") {
    return script
      .split("\n")
      .filter((l) => l.startsWith(`complete -c ${bin} `) && (command === undefined || l.includes(`'__fish_seen_subcommand_from ${command}'`)))
      .join("\n");
  }
  if (shell === "bash") {
    const fn = `_${bin.replace(/-/g, "_")}${command === undefined ? "" : `__${command.replace(/-/g, "_")}`}() {`;
    return between(script, fn, "\n}\n");
  }
  if (command === undefined) return between(script, `_${bin.replace(/-/g, "_")}() {`, "\n}\n");
  return between(script, `\n    ${command})\n`, "\n      ;;");
}

function between(text: string, start: string, end: string): string {
  const at = text.indexOf(start);
  assert.ok(at !== -1, `no ${start}`);
  return text.slice(at, text.indexOf(end, at));
}

function mentions(shell: (typeof SHELLS)[number], part: string, option: string): boolean {
  if (shell === "fish") return new RegExp(`-l ${option.slice(2)}( |$)`, "m").test(part);
  if (shell === "bash") return new RegExp(`(^|[ "|(])${option}([ "|)]|$)`, "m").test(part);
  return new RegExp(`(['*{,]|^)${option}[[:,}']`, "m").test(part);
}

/** Each line has an even number of single quotes, once escaped ones are taken out. */
function assertQuotesClose(text: string, shell: string): void {
  text.split("\n").forEach((line, i) => line.startsWith("#") || assert.equal((line.match(/'/g) ?? []).length % 2, 0, `${shell} line ${i + 1}: ${line}`));
}
