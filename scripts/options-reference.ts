/**
 * Writes docs/options-reference.md: every binary's and every `stretto` command's options,
 * with their help text, as the binaries themselves print them (`--help`, `stretto help
 * <command>`). The help is printed from the option tables in lib/cli/, so this page follows
 * the tables wherever they live; spec/docs/options-reference.spec.ts fails when the
 * committed page differs from what the built binaries print.
 *
 *   make docs        (builds, then runs `node dist/scripts/options-reference.js`)
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The page, relative to the repository. */
export const REFERENCE_PATH = "docs/options-reference.md";

/** One section of the page: a command line whose output is a help text. */
interface Section {
  /** The command as a reader types it: `stretto-proxy --help`, `stretto help learn`. */
  shown: string;
  /** The heading: the binary, or `stretto <command>`. */
  title: string;
  /** The built binary under dist/lib/cli/, and its arguments. */
  bin: string;
  args: string[];
  /** Where the prose about it is (a page in docs/). */
  more?: string;
}

/** The binaries, in the order the README lists them, and the page that explains each. */
const BINARIES: ReadonlyArray<{ bin: string; more: string }> = [
  { bin: "stretto-proxy", more: "options.md" },
  { bin: "stretto", more: "trace.md#the-stretto-command" },
  { bin: "stretto-mcp-demo", more: "demo-server.md" },
  { bin: "stretto-procedure", more: "procedure.md" },
];

/** The page that explains each `stretto` command (a command not named here links to trace.md). */
const COMMAND_PAGES: Readonly<Record<string, string>> = {
  episode: "trace.md#the-stretto-command",
  episodes: "trace.md#the-stretto-command",
  manifest: "trace.md#the-stretto-command",
  replay: "plugins.md#replay-the-same-plugins-offline",
  guards: "guards.md",
  redact: "redact.md",
  learn: "flows.md#learn-a-flow-from-your-sessions-stretto-learn",
  promote: "promote-evaluate.md",
  evaluate: "promote-evaluate.md",
  "flow-show": "flow-review.md",
  "flow-diff": "flow-review.md",
  init: "init.md",
  doctor: "doctor.md",
  console: "console-api.md",
  completions: "completions.md",
  audit: "audit-drift.md#stretto-audit",
  drift: "audit-drift.md#stretto-drift",
  stage: "staging.md#stretto-stage",
  "flow-commit": "staging.md#flow-commit-flow-rollback-flow-log",
  "flow-rollback": "staging.md#flow-commit-flow-rollback-flow-log",
  "flow-log": "staging.md#flow-commit-flow-rollback-flow-log",
  "export-answers": "staging.md#export-answers-and-import-answers",
  "import-answers": "staging.md#export-answers-and-import-answers",
};

/** Runs a built binary and returns what it printed on stdout; anything but exit 0 is an error. */
function run(root: string, bin: string, args: readonly string[]): Promise<string> {
  const script = join(root, "dist", "lib", "cli", `${bin}.js`);
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [script, ...args],
      // No terminal and no colour: the help must not depend on who runs this.
      { cwd: root, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" }, maxBuffer: 8 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${bin} ${args.join(" ")} failed (${err.message.trim()}): ${stderr.trim()}`));
        else resolvePromise(stdout);
      },
    );
  });
}

/** The commands `stretto --help` lists under `Commands:` (`help` itself left out). */
export function strettoCommands(help: string): string[] {
  const lines = help.split("\n");
  const start = lines.findIndex((l) => l.trim() === "Commands:");
  if (start === -1) throw new Error("stretto --help lists no Commands: section");
  const commands: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (l.trim() === "") break;
    const m = /^ {1,4}([a-z][a-z0-9-]*)\b/.exec(l);
    if (m && m[1] !== "help") commands.push(m[1]!);
  }
  if (commands.length === 0) throw new Error("stretto --help lists no commands");
  return commands;
}

/**
 * The options a help text names: each option line's (`  -h, --help  Print help`, indented
 * at most 6 spaces, so continuation lines that mention other options do not count), and
 * each option in a `Usage:` line (the demo's help is its usage line alone).
 */
export function optionsIn(help: string): string[] {
  const found = new Set<string>();
  for (const l of help.split("\n")) {
    const option = optionLine(l);
    if (option !== undefined) found.add(option);
    if (/^usage:/i.test(l)) for (const m of l.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*)/g)) found.add(m[1]!);
  }
  return [...found];
}

/** The option a line of help describes (`      --record <DIR>   Write…`), if it describes one. */
function optionLine(line: string): string | undefined {
  return /^ {1,6}(?:-[A-Za-z], )?(--[a-z][a-z0-9-]*)/.exec(line)?.[1];
}

/** Whether a help text describes its options one by one, rather than only naming them in its usage line. */
export function describesOptions(help: string): boolean {
  return help.split("\n").some((l) => {
    const o = optionLine(l);
    return o !== undefined && o !== "--help" && o !== "--version";
  });
}

/** A GitHub heading anchor for a heading written as `` `text` ``. */
function anchor(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, "")
    .replace(/ /g, "-");
}

/** The page's text, from the binaries built under `<root>/dist`. */
export async function optionsReference(root: string): Promise<string> {
  const stretto = await run(root, "stretto", ["--help"]);
  const sections: Section[] = [];
  for (const { bin, more } of BINARIES) {
    sections.push({ shown: `${bin} --help`, title: bin, bin, args: ["--help"], more });
    if (bin === "stretto") {
      for (const c of strettoCommands(stretto)) {
        sections.push({ shown: `stretto help ${c}`, title: `stretto ${c}`, bin, args: ["help", c], more: COMMAND_PAGES[c] ?? "trace.md" });
      }
    }
  }
  const helps = await Promise.all(sections.map((s) => run(root, s.bin, s.args)));

  const index = new Map<string, string[]>();
  sections.forEach((s, i) => {
    for (const o of optionsIn(helps[i]!)) {
      const where = index.get(o) ?? [];
      where.push(`[${s.title}](#${anchor(s.title)})`);
      index.set(o, where);
    }
  });
  const byName = [...index.keys()].sort((a, b) => a.localeCompare(b, "en"));

  const out: string[] = [];
  out.push("# Options reference");
  out.push("");
  out.push(
    "Every option of every binary and every `stretto` command, with its help text, exactly as the",
    "binaries print it. The help is printed from the option tables in `lib/cli/`.",
  );
  out.push("");
  out.push(
    "**Generated; do not edit.** `make docs` writes this page (`scripts/options-reference.ts` runs",
    "each command below against the build in `dist/`); `spec/docs/options-reference.spec.ts` fails",
    "when it differs from what the binaries print. How to use the options, with examples, is in the",
    "page each section links to.",
  );
  out.push("");
  out.push("Contents: " + sections.map((s) => `[\`${s.title}\`](#${anchor(s.title)})`).join(" · ") + " · [Every option](#every-option)");
  sections.forEach((s, i) => {
    out.push("");
    out.push(`## \`${s.title}\``);
    out.push("");
    out.push(`\`${s.shown}\`${s.more === undefined ? "" : ` (more: [${s.more.split("#")[0]}](${s.more}))`}:`);
    out.push("");
    out.push("```text");
    out.push(helps[i]!.replace(/\s+$/, ""));
    out.push("```");
    const named = optionsIn(helps[i]!).filter((o) => o !== "--help" && o !== "--version");
    if (!describesOptions(helps[i]!) && named.length > 0 && s.more !== undefined) {
      out.push("");
      out.push(`Its help names the options in its usage line only; [${s.more.split("#")[0]}](${s.more}) says what each does.`);
    }
  });
  out.push("");
  out.push("## Every option");
  out.push("");
  out.push("Each option named above, and where.");
  out.push("");
  out.push("| option | in |");
  out.push("|---|---|");
  for (const o of byName) out.push(`| \`${o}\` | ${index.get(o)!.join(", ")} |`);
  out.push("");
  return out.join("\n");
}

async function main(): Promise<void> {
  // dist/scripts/options-reference.js → the repository.
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const text = await optionsReference(root);
  writeFileSync(join(root, REFERENCE_PATH), text);
  process.stdout.write(`wrote ${REFERENCE_PATH}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`options-reference: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
