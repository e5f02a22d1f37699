/**
 * The command-line and logging checks of docs/cli-checks.md, each against the real
 * binaries: a missing `--context` file, a flow file that is not JSON, a bare `\r` line in
 * the log, flow options without `--flow`, and unknown options after -V/-h.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { readLog } from "../../lib/trace/index.js";
import { DEMO, NODE, PROXY, STRETTO, cleanTemp, killAll, run, runProxy, sessionLogs, start, tempDir } from "../helpers/processes.js";

const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
const call = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "lookup", arguments: {} } });
const USAGE_TAIL = "\n\nUsage: stretto-proxy [OPTIONS] [-- <SERVER_COMMAND>...]\n\nFor more information, try '--help'.\n";

type Entry = { from: string; message?: unknown; raw?: string };
const entriesOf = (log: string): Entry[] =>
  readFileSync(log, "utf8").split("\n").filter((l) => l !== "").slice(1).map((l) => JSON.parse(l) as Entry);

describe("command-line checks and the log's raw lines", () => {
  after(() => {
    killAll();
    cleanTemp();
  });

  describe("--context", () => {
    it("says once at start that the file does not exist yet, and reads it once the host creates it", async () => {
      const dir = tempDir();
      const context = join(dir, "conversation.jsonl");
      const child = start(NODE, [PROXY, "--record", dir, "--context", context, "--", "cat"]);
      const stderr: Buffer[] = [];
      child.stderr!.on("data", (c: Buffer) => stderr.push(c));
      const echoes = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const exit = new Promise<number | null>((r) => child.once("close", (code) => r(code)));

      child.stdin!.write(`${call(1)}\n`);
      await echoes.next();
      writeFileSync(context, `${JSON.stringify({ role: "user", content: "cancel #W1 please" })}\n`);
      child.stdin!.write(`${call(2)}\n`);
      await echoes.next();
      child.stdin!.end();
      assert.equal(await exit, 0);

      const said = Buffer.concat(stderr).toString().split("\n");
      assert.deepEqual(
        said.filter((l) => l.includes("conversation")),
        [`stretto-proxy: the conversation file ${context} does not exist yet; it is read once the host creates it`],
      );
      const froms = entriesOf(sessionLogs(dir)[0]!).map((e) => e.from);
      assert.deepEqual(froms, ["client", "server", "context", "client", "server"]);
    });

    it("expands {session} in the folder too, and does not ask the host's per-session folder to exist", async () => {
      const dir = tempDir();
      const r = await runProxy(["--context", join(dir, "{session}", "c.jsonl"), "--", "cat"], {
        input: `${PING}\n`,
        env: { ...process.env, STRETTO_SESSION: "s-42" },
      });
      assert.equal(r.code, 0);
      assert.equal(r.stdout.toString(), `${PING}\n`);
      assert.equal(r.stderr, `stretto-proxy: the conversation file ${join(dir, "s-42", "c.jsonl")} does not exist yet; it is read once the host creates it\n`);
    });

    it("says nothing when the file is there", async () => {
      const dir = tempDir();
      const context = join(dir, "c.jsonl");
      writeFileSync(context, "");
      const r = await runProxy(["--context", context, "--", "cat"], { input: `${PING}\n` });
      assert.deepEqual([r.code, r.stderr], [0, ""]);
    });

    it("refuses a path whose folder does not exist, or a folder, as usage errors (exit 2, no log)", async () => {
      const dir = tempDir();
      const missing = join(dir, "no-such-folder", "c.jsonl");
      const r = await runProxy(["--record", dir, "--context", missing, "--", "cat"], { input: `${PING}\n` });
      assert.equal(r.code, 2);
      assert.equal(r.stdout.toString(), "");
      assert.equal(r.stderr, `error: invalid value '${missing}' for '--context <FILE>': its folder ${join(dir, "no-such-folder")} does not exist${USAGE_TAIL}`);
      const folder = await runProxy(["--record", dir, "--context", dir, "--", "cat"]);
      assert.equal(folder.code, 2);
      assert.equal(folder.stderr, `error: invalid value '${dir}' for '--context <FILE>': it is a folder, not a file${USAGE_TAIL}`);
      const empty = await runProxy(["--context=", "--", "cat"]);
      assert.equal(empty.code, 2);
      assert.match(empty.stderr, /^error: invalid value '' for '--context <FILE>': the file's name is empty\n/);
      assert.deepEqual(sessionLogs(dir), []);
    });
  });

  describe("a --flow file that is not JSON", () => {
    const cases: Array<[string, string, string]> = [
      ["text before any JSON, over two lines", "password=hunter2\nsecond line\n", "expected value at line 1 column 1"],
      ["a bad token after a secret, on line 2", '{"stretto_flow": 2,\n "token": "sk-hunter2" oops}\n', "expected `,` or `}` at line 2 column 24"],
      ["a key without quotes", '{"stretto_flow": 2,\n  hunter2: 1}', "key must be a string at line 2 column 3"],
      ["a file cut off", '{"stretto_flow": 2, "token": "hunter2', "EOF while parsing a string at line 1 column 38"],
      ["blank lines then text", "\n\nhunter2", "expected value at line 3 column 1"],
    ];
    for (const [what, text, reason] of cases) {
      it(`names the place in one line and quotes nothing: ${what} (exit 125)`, async () => {
        const flow = join(tempDir(), "x.flow.json");
        writeFileSync(flow, text);
        const r = await runProxy(["--flow", flow, "--", NODE, DEMO]);
        assert.equal(r.code, 125);
        assert.equal(r.stderr, `stretto-proxy: loading ${flow}: not a stretto flow: ${reason}\n`);
        assert.ok(!r.stderr.includes("hunter2"));
      });
    }
  });

  describe("a line that is a bare \\r", () => {
    it("is logged as \"\\r\", never as the empty line; \\n and \\r\\n are empty lines; the readers still read the log", async () => {
      const dir = tempDir();
      const input = Buffer.from(`${PING}\n\n\r\n\r\r\nnot json\r\n\r`);
      const r = await runProxy(["--record", dir, "--", "cat"], { input });
      assert.equal(r.code, 0);
      assert.deepEqual(r.stdout, input, "forwarded byte for byte");
      const [log] = sessionLogs(dir);
      const client = entriesOf(log!).filter((e) => e.from === "client");
      assert.deepEqual(client.map((e) => e.raw), [undefined, "", "", "\r", "not json", "\r"]);
      const server = entriesOf(log!).filter((e) => e.from === "server");
      assert.deepEqual(server.map((e) => e.raw), [undefined, "", "", "\r", "not json", "\r"]);

      const read = await readLog(log!);
      assert.equal(read.entries.filter((e) => e.raw === "\r").length, 4);
      const episode = await run(NODE, [STRETTO, "episode", log!]);
      assert.equal(episode.code, 0, episode.stderr);
      assert.ok(JSON.parse(episode.stdout.toString()));
      const episodes = await run(NODE, [STRETTO, "episodes", dir]);
      assert.equal(episodes.code, 0, episodes.stderr);
    });
  });

  describe("options that belong to --flow", () => {
    const flowOnly: string[][] = [
      ["--flow-threshold", "0.5"],
      ["--flow-decider", "habit"],
      ["--flow-surprise", "off"],
      ["--flow-per-call", "1"],
      ["--flow-per-session", "1"],
      ["--flow-questions", "1"],
      ["--flow-log", "x.flow.jsonl"],
      ["--flow-tools", "a,b"],
      ["--flow-shadow"],
      ["--flow-explore", "0.1"],
      ["--task-id", "t1"],
    ];
    for (const opt of flowOnly) {
      it(`refuses ${opt[0]} without --flow (exit 2)`, async () => {
        const r = await runProxy([...opt, "--", "cat"], { input: `${PING}\n` });
        assert.equal(r.code, 2);
        assert.equal(r.stdout.toString(), "");
        assert.equal(r.stderr, `error: the following required arguments were not provided: --flow <FILE>${USAGE_TAIL}`);
      });
    }

    it("refuses --flow-explore-seed without --flow-explore, and stretto replay refuses a flow option without --flow", async () => {
      const seed = await runProxy(["--flow-explore-seed", "3", "--", "cat"]);
      assert.equal(seed.code, 2);
      assert.match(seed.stderr, /^error: the following required arguments were not provided: --flow-explore <EPSILON>\n/);

      const dir = tempDir();
      await runProxy(["--record", dir, "--", "cat"], { input: `${PING}\n` });
      const replay = await run(NODE, [STRETTO, "replay", sessionLogs(dir)[0]!, "--flow-threshold", "0.5"]);
      assert.equal(replay.code, 2);
      assert.match(replay.stderr, /^stretto: the following required arguments were not provided: --flow <FILE>\n/);
    });
  });

  describe("an unknown option after -V or -h", () => {
    for (const argv of [["-V", "--bogus"], ["--version", "--bogus"], ["-h", "--bogus"], ["--help", "--bogus"], ["--bogus", "-V"], ["-V", "--bogus=1", "--", "cat"]]) {
      it(`stretto-proxy ${argv.join(" ")}: usage error, exit 2, nothing on stdout`, async () => {
        const r = await runProxy(argv);
        assert.equal(r.code, 2);
        assert.equal(r.stdout.toString(), "");
        assert.equal(r.stderr, `error: unexpected argument '--bogus' found${USAGE_TAIL}`);
      });
    }

    it("stretto-proxy -V and -h alone, or with known options, still answer (exit 0)", async () => {
      const v = await runProxy(["-V"]);
      assert.deepEqual([v.code, v.stdout.toString()], [0, "stretto-proxy 0.1.0\n"]);
      const withOpts = await runProxy(["--domain", "retail", "-V", "--flow-shadow"]);
      assert.deepEqual([withOpts.code, withOpts.stdout.toString()], [0, "stretto-proxy 0.1.0\n"]);
      const h = await runProxy(["--record", "x", "-h"]);
      assert.equal(h.code, 0);
      assert.match(h.stdout.toString(), /^A stdio MCP proxy/);
    });

    it("stretto: the same, at the top and after a command", async () => {
      for (const argv of [["-V", "--bogus"], ["--version", "--bogus"], ["-h", "--bogus"], ["--help", "-x"]]) {
        const r = await run(NODE, [STRETTO, ...argv]);
        assert.equal(r.code, 2, argv.join(" "));
        assert.equal(r.stdout.toString(), "");
        assert.equal(r.stderr, `stretto: no option ${argv[1]}\nUsage: stretto <command> [arguments]\n`);
      }
      for (const command of ["episode", "guards"]) {
        const r = await run(NODE, [STRETTO, command, "--help", "--bogus"]);
        assert.equal(r.code, 2, command);
        assert.equal(r.stdout.toString(), "");
        assert.match(r.stderr, new RegExp(`^stretto: ${command} has no option --bogus\\nUsage: stretto ${command} `));
      }
      assert.equal((await run(NODE, [STRETTO, "-V", "-h"])).stdout.toString(), "stretto 0.1.0\n");
      const ok = await run(NODE, [STRETTO, "episode", "--help"]);
      assert.equal(ok.code, 0);
    });

    it("stretto-mcp-demo: the same", async () => {
      for (const argv of [["-V", "--bogus"], ["--version", "--bogus"], ["-h", "--bogus"]]) {
        const r = await run(NODE, [DEMO, ...argv]);
        assert.equal(r.code, 2, argv.join(" "));
        assert.equal(r.stdout.toString(), "");
        assert.match(r.stderr, /^usage: stretto-mcp-demo /);
      }
    });
  });
});
