/** The `stretto` binary as a process: episode, episodes, manifest, help and exit codes. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError, parseArgs, type Command } from "../../lib/cli/stretto/command.js";
import { episodeJson } from "../../lib/cli/stretto/episode-json.js";
import { episode, merge, parseLog, toJsonl, type Episode, type McpLog, type ToolManifest } from "../../lib/trace/index.js";
import { HEADER, call, callWith, logOf, outline, reply, serverLog, timed, type Line } from "./log-fixtures.js";

const STRETTO = fileURLToPath(new URL("../../lib/cli/stretto.js", import.meta.url));

function stretto(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [STRETTO, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const LISTED: [Line, Line] = [
  ["client", { jsonrpc: "2.0", id: 1, method: "tools/list" }],
  [
    "server",
    {
      jsonrpc: "2.0",
      id: 1,
      result: {
        tools: [
          { name: "lookup", description: "Look  it up.", annotations: { readOnlyHint: true } },
          { name: "update", annotations: { readOnlyHint: false } },
        ],
      },
    },
  ],
];

/** A shop log and a notes log of host session `task-1`, and a log of no host session. */
function folderLogs(): McpLog[] {
  const shop = serverLog("shop", "task-1", 1_000, [
    timed(0, LISTED[0]),
    timed(2, LISTED[1]),
    timed(10, callWith(2, "lookup", { text: "a" })),
    timed(15, reply(2, "A")),
  ]);
  const notes = serverLog("notes", "task-1", 1_005, [timed(20, call(2, "update")), timed(30, reply(2, "ok"))]);
  const lone = logOf([call(1, "get"), reply(1, "got")]);
  lone.header.session = "20260101T000000.000Z-9";
  lone.header.domain = "solo";
  return [shop, notes, lone];
}

describe("stretto CLI (bin)", function () {
  this.timeout(60_000);
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "stretto-cli-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("prints its help and version, and a command's help, on stdout with exit 0", () => {
    const help = stretto("--help");
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Read the sessions stretto-proxy recorded\.\n\nUsage: stretto <command> \[arguments\]\n/);
    for (const c of ["episode <log>", "episodes <dir>", "manifest [--domain NAME] <log|dir>", "help [command]"]) {
      assert.ok(help.stdout.includes(`\n  ${c}`), c);
    }
    assert.equal(stretto("help").stdout, help.stdout);
    assert.equal(stretto("-V").stdout, "stretto 0.1.0\n");
    const one = stretto("episodes", "--help");
    assert.equal(one.code, 0);
    assert.match(one.stdout, /^Print every session in a folder, one Episode per line \(JSONL\)\.\n\nUsage: stretto episodes <dir>\n\n/);
    assert.equal(stretto("help", "episodes").stdout, one.stdout);
    assert.equal(help.stderr + one.stderr, "");
  });

  it("says what was wrong with its arguments in one line, with the usage as the hint, and exits 2", () => {
    const cases: [string[], string][] = [
      [[], "stretto: no command given (try 'stretto help')\nUsage: stretto <command> [arguments]\n"],
      [["teach", "x"], "stretto: no command named 'teach' (try 'stretto help')\nUsage: stretto <command> [arguments]\n"],
      [["--pretty"], "stretto: no option --pretty before a command\nUsage: stretto <command> [arguments]\n"],
      [["episode"], "stretto: episode needs a log file\nUsage: stretto episode <log>\n"],
      [["episode", "a.jsonl", "b.jsonl"], "stretto: episode takes one log file, not 2\nUsage: stretto episode <log>\n"],
      [["episodes"], "stretto: episodes needs a folder\nUsage: stretto episodes <dir>\n"],
      [["episodes", "--all", "d"], "stretto: episodes has no option --all\nUsage: stretto episodes <dir>\n"],
      [["manifest", "x", "--domain"], "stretto: --domain needs a value\nUsage: stretto manifest [--domain NAME] <log|dir>\n"],
      [["help", "a", "b"], "stretto: help takes one command, not 2\nUsage: stretto help [command]\n"],
      [["help", "nope"], "stretto: no command named 'nope' (try 'stretto help')\nUsage: stretto <command> [arguments]\n"],
    ];
    for (const [args, stderr] of cases) {
      const r = stretto(...args);
      assert.deepEqual([r.code, r.stdout, r.stderr], [2, "", stderr], args.join(" "));
    }
  });

  it("exits 1 with the reader's message when its input cannot be read", async () => {
    const bad = join(dir, "bad.jsonl");
    await writeFile(bad, `${HEADER}\n{"t_ms":1}\n`);
    const cases: [string[], string][] = [
      [["episode", "/nonexistent/s.jsonl"], "stretto: reading /nonexistent/s.jsonl: No such file or directory (os error 2)\n"],
      [["episode", bad], `stretto: parsing ${bad}: line 2: missing field \`from\`\n`],
      [["episodes", bad], `stretto: listing ${bad}: Not a directory (os error 20)\n`],
      [["episodes", dir], `stretto: parsing ${bad}: line 2: missing field \`from\`\n`],
      [["manifest", "/nonexistent"], "stretto: reading /nonexistent: No such file or directory (os error 2)\n"],
    ];
    for (const [args, stderr] of cases) {
      const r = stretto(...args);
      assert.deepEqual([r.code, r.stdout, r.stderr], [1, "", stderr], args.join(" "));
    }
  });

  it("episode prints one log's Episode as indented JSON", async () => {
    const [, , lone] = folderLogs();
    const path = join(dir, "lone.jsonl");
    await writeFile(path, toJsonl(lone!) + '{"t_ms":9,"from":"ser');
    const r = stretto("episode", path);
    assert.deepEqual([r.code, r.stderr], [0, ""]);
    const expected = episode(parseLog(toJsonl(lone!)));
    assert.equal(r.stdout, JSON.stringify(expected, null, 2) + "\n");
    assert.deepEqual(JSON.parse(r.stdout), {
      id: "20260101T000000.000Z-9",
      task_id: "",
      trial: 0,
      domain: "solo",
      agent_model: "unknown",
      reward: 0,
      events: [
        { kind: "assistant", text: null, calls: [{ id: "1", name: "get", arguments: { n: 1 } }], usage: null },
        { kind: "tool_result", call_id: "1", name: "get", error: false, content: "got" },
      ],
    });
  });

  it("episodes prints a folder's sessions one per line, a host session's servers merged", async () => {
    const logs = folderLogs();
    for (const log of logs) await writeFile(join(dir, `${log.header.session}.jsonl`), toJsonl(log));
    await writeFile(join(dir, "x.flow.jsonl"), "not a session log\n");
    const r = stretto("episodes", dir);
    assert.equal(r.code, 0);
    assert.equal(r.stderr, "stretto: merged 2 logs into 1 session across servers\n");
    const lines = r.stdout.split("\n");
    assert.equal(lines.pop(), "");
    const eps = lines.map((l) => JSON.parse(l) as Episode);
    // Sessions in the order of their first logs' sessions; once a host session is merged,
    // the other log's tools are named after its server too (here its domain).
    assert.deepEqual(
      eps.map((e) => [e.id, e.domain, outline(e)]),
      [
        // The notes call followed the shop's answer within 500 ms, needing nothing it returned.
        ["task-1", "mcp", ["turn(shop::lookup,notes::update)", "result:shop::2", "result:notes::2"]],
        ["20260101T000000.000Z-9", "solo", ["turn(solo::get)", "result:solo::1"]],
      ],
    );
    // Exactly what the library makes of the same logs.
    const sorted = [...logs].sort((a, b) => (a.header.session < b.header.session ? -1 : 1));
    assert.deepEqual(lines, merge(sorted).logs.map((l) => JSON.stringify(episode(l))));
  });

  it("manifest prints a log's or a folder's tools, kinds and docs", async () => {
    const logs = folderLogs();
    for (const log of logs) await writeFile(join(dir, `${log.header.session}.jsonl`), toJsonl(log));
    const one = stretto("manifest", join(dir, "1000-shop.jsonl"));
    assert.deepEqual([one.code, one.stderr], [0, ""]);
    assert.equal(
      one.stdout,
      JSON.stringify(
        { domain: "mcp", tools: { lookup: "read", update: "write" }, docs: { lookup: { summary: "Look it up.", args: {} } } },
        null,
        2,
      ) + "\n",
    );
    const all = stretto("manifest", dir);
    assert.equal(all.code, 0);
    assert.deepEqual(JSON.parse(all.stdout), {
      domain: "mcp",
      tools: { "shop::lookup": "read", "shop::update": "write" },
      docs: { "shop::lookup": { summary: "Look it up.", args: {} } },
    });
    assert.equal((JSON.parse(stretto("manifest", "--domain", "support", dir).stdout) as ToolManifest).domain, "support");
    assert.equal((JSON.parse(stretto("manifest", `--domain=d`, join(dir, "1000-shop.jsonl")).stdout) as ToolManifest).domain, "d");
  });

  it("shows progress on stderr for a big folder", async () => {
    for (let i = 0; i < 100; i++) {
      const log = logOf([call(1, "get"), reply(1, String(i))]);
      log.header.session = `s${String(i).padStart(3, "0")}`;
      await writeFile(join(dir, `${log.header.session}.jsonl`), toJsonl(log));
    }
    const r = stretto("episodes", dir);
    assert.equal(r.code, 0);
    assert.equal(r.stdout.split("\n").length, 101);
    const progress = r.stderr.split("\n").filter((l) => l !== "");
    assert.equal(progress[progress.length - 1], "stretto: building episodes 100/100");
    assert.ok(progress.includes("stretto: scanning logs 100/100"), r.stderr);
    assert.ok(progress.every((l) => /^stretto: (scanning logs|building episodes) \d+\/100$/.test(l)), r.stderr);
  });

  it("parses a command's positionals, value options (repeatable) and flags", () => {
    const command: Command = {
      name: "demo",
      usage: "stretto demo [--guards] [--plugin M]... <log>",
      summary: "",
      help: "",
      valueOptions: ["--plugin", "--domain"],
      flagOptions: ["--guards"],
      run: () => Promise.resolve(0),
    };
    const args = parseArgs(command, ["--plugin", "a.js", "x.jsonl", "--guards", "--plugin=b.js", "--domain", "-r", "--", "--not-an-option"]);
    assert.deepEqual(args.positionals, ["x.jsonl", "--not-an-option"]);
    assert.deepEqual([...args.flags], ["--guards"]);
    assert.deepEqual([...args.lists], [
      ["--plugin", ["a.js", "b.js"]],
      ["--domain", ["-r"]],
    ]);
    assert.equal(args.options.get("--plugin"), "b.js");
    const refused = (argv: string[]): string => {
      try {
        parseArgs(command, argv);
      } catch (e) {
        assert.ok(e instanceof UsageError);
        assert.equal(e.usage, command.usage);
        return e.message;
      }
      return assert.fail("expected a usage error");
    };
    assert.equal(refused(["--guards=yes"]), "--guards takes no value");
    assert.equal(refused(["--plugin"]), "--plugin needs a value");
    assert.equal(refused(["-x"]), "demo has no option -x");
  });

  it("writes an episode's JSON event by event, the same text as JSON.stringify", () => {
    const full = episode(logOf([call(1, "a"), reply(1, "x\ny"), call(2, "b")]));
    const empty = { ...full, events: [] };
    for (const ep of [full, empty]) {
      for (const indent of [0, 2, 4]) {
        assert.equal([...episodeJson(ep, indent)].join(""), JSON.stringify(ep, null, indent || undefined));
      }
    }
  });
});
