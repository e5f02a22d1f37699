/**
 * `stretto init` through the real binary: each host's snippet in that host's own format,
 * where it goes and the next steps, every option and every refusal, how the proxy is named,
 * and `--write` merging into a host's file.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { STRETTO, cleanTemp, tempDir } from "../helpers/processes.js";
import { assertInsertion, fakeBin, inProcess, makeFlows, shellWords, stretto, type Flows } from "./init-helpers.js";

const SERVER = ["--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"];
const ARGS = ["--record", "~/.stretto/logs/notes", "--domain", "notes", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"];

/** In this process (see inProcess); `stretto` runs the binary where the process boundary matters. */
const init = (...args: string[]) => inProcess(["init", ...args]);

describe("stretto init", function () {
  this.timeout(60_000);
  after(cleanTemp);

  describe("each host's snippet", () => {
    it("Claude Code: a `claude mcp add` line that bash reads back word for word", async () => {
      const r = await stretto(["init", "--host", "claude-code", "--domain", "notes", ...SERVER, "it's here"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        r.stdout,
        "claude mcp add notes -- stretto-proxy --record ~/.stretto/logs/notes --domain notes -- npx -y @modelcontextprotocol/server-filesystem /home/me/notes 'it'\\''s here'\n",
      );
      // bash expands the ~ as the host's shell would; every other word arrives as given.
      assert.deepEqual(shellWords(r.stdout.trimEnd()), ["claude", "mcp", "add", "notes", "--", "stretto-proxy", "--record", "/home/me/.stretto/logs/notes", ...ARGS.slice(2), "it's here"]);
    });

    it("Claude Desktop and Cursor: the mcpServers JSON, laid out with args on one line", async () => {
      for (const host of ["claude-desktop", "cursor"]) {
        const r = await init("--host", host, "--domain", "notes", ...SERVER);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(
          r.stdout,
          '{\n  "mcpServers": {\n    "notes": {\n      "command": "stretto-proxy",\n      "args": ["--record", "~/.stretto/logs/notes", "--domain", "notes", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]\n    }\n  }\n}\n',
        );
        assert.deepEqual(JSON.parse(r.stdout), { mcpServers: { notes: { command: "stretto-proxy", args: ARGS } } });
      }
    });

    it("VS Code: servers, with type stdio", async () => {
      const r = await init("--host", "vscode", "--domain", "notes", ...SERVER, 'a "quoted" \\ word');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^ {6}"type": "stdio",$/m);
      assert.deepEqual(JSON.parse(r.stdout), { servers: { notes: { type: "stdio", command: "stretto-proxy", args: [...ARGS, 'a "quoted" \\ word'] } } });
    });

    it("says where each goes, and starts the next steps where the configuration is", async () => {
      const where = {
        "claude-code": "Run the command in the project where you use Claude Code.",
        "claude-desktop": "Merge it into claude_desktop_config.json (on macOS in ~/Library/Application Support/Claude/",
        cursor: "Merge it into ~/.cursor/mcp.json (every project) or .cursor/mcp.json (this project).",
        vscode: "Merge it into .vscode/mcp.json in the workspace",
      };
      for (const [host, text] of Object.entries(where)) {
        const r = await init("--host", host, "--domain", "notes", ...SERVER);
        assert.ok(r.stderr.includes(`\n${text}`), r.stderr);
        const steps = r.stderr.slice(r.stderr.indexOf("Next steps"));
        assert.deepEqual(steps.match(/^\d+\. /gm), ["1. ", "2. ", "3. ", "4. ", "5. ", "6. "]);
        assert.ok(steps.includes("1. Use the agent as usual. The proxy records each session in ~/.stretto/logs/notes.\n"));
        assert.ok(steps.includes("     stretto learn --sessions ~/.stretto/logs/notes --domain notes --habit-only --out ~/.stretto/notes.flow.json\n"));
        assert.ok(steps.includes(`     stretto init --host ${host} --domain notes --flow ~/.stretto/notes.flow.json --shadow -- npx -y @modelcontextprotocol/server-filesystem /home/me/notes\n`));
        assert.ok(steps.includes("--sessions ~/.stretto/shadow/notes --decider reach --out ~/.stretto/notes-promoted.flow.json\n"));
        assert.ok(!steps.includes("TYPESAFE_API_KEY"));
      }
    });
  });

  describe("the proxy's arguments", () => {
    it("makes relative paths absolute, keeps ~, and keeps the policy in order", async () => {
      const cwd = tempDir("stretto-init-cwd-");
      const r = await stretto(
        ["init", "--host", "cursor", "--domain", "retail", "--record", "logs", "--retain-days", "30", "--guards", "--confirm-judge", "log", "--context", "~/ctx.jsonl", "--commit", "--", "./bin/server", "data/x"],
        { cwd },
      );
      assert.equal(r.code, 0, r.stderr);
      const real = statSync(cwd).isDirectory() ? r.stdout : "";
      const args = (JSON.parse(real) as { mcpServers: { retail: { args: string[] } } }).mcpServers.retail.args;
      const abs = (p: string) => join(process.platform === "darwin" ? cwd : cwd, p);
      assert.deepEqual(args, ["--record", abs("logs"), "--domain", "retail", "--retain-days", "30", "--guards", "--confirm-judge", "log", "--context", "~/ctx.jsonl", "--commit", "--", abs("bin/server"), "data/x"]);
      assert.ok(r.stderr.includes("The confirmation judge asks TypeSafe's Jev about each write"), r.stderr);
      assert.ok(r.stderr.includes("stretto init --host cursor --domain retail --retain-days 30 --guards --confirm-judge log --context ~/ctx.jsonl --commit --flow"));
    });

    it("an HTTP server is an --upstream with each header by its variable, never its value", async () => {
      const secret = "sk-very-secret-value-1234";
      const r = await inProcess(["init", "--host", "vscode", "--domain", "docs", "--upstream", "https://example.com/mcp", "--upstream-header", "Authorization=DOCS_TOKEN"], {
        DOCS_TOKEN: secret,
        TYPESAFE_API_KEY: secret,
      });
      assert.equal(r.code, 0, r.stderr);
      const entry = (JSON.parse(r.stdout) as { servers: { docs: { args: string[] } } }).servers.docs;
      assert.deepEqual(entry.args, ["--record", "~/.stretto/logs/docs", "--domain", "docs", "--upstream", "https://example.com/mcp", "--upstream-header", "Authorization=DOCS_TOKEN"]);
      assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret));
      const file = join(tempDir("stretto-init-secret-"), "mcp.json");
      const written = await inProcess(["init", "--host", "vscode", "--domain", "docs", "--write", file, "--upstream", "https://example.com/mcp", "--upstream-header", "Authorization=DOCS_TOKEN"], {
        DOCS_TOKEN: secret,
        TYPESAFE_API_KEY: secret,
      });
      assert.equal(written.code, 0, written.stderr);
      assert.ok(readFileSync(file, "utf8").includes('"Authorization=DOCS_TOKEN"') && !readFileSync(file, "utf8").includes(secret));
      assert.ok(!written.stderr.includes(secret));
    });

    it("serves a flow by how it decides: habit, reach, or its arbiter (and says what the arbiter needs)", async function () {
      const flows: Flows = await makeFlows();
      const decider = async (path: string, ...more: string[]) => {
        const r = await init("--host", "claude-desktop", "--flow", path, ...more, "--", "shop-server");
        assert.equal(r.code, 0, r.stderr);
        const args = Object.values((JSON.parse(r.stdout) as { mcpServers: Record<string, { args: string[] }> }).mcpServers)[0]!.args;
        return { args, stderr: r.stderr };
      };
      const habit = await decider(flows.habit);
      assert.deepEqual(habit.args, ["--record", "~/.stretto/logs/shop", "--domain", "shop", "--flow", flows.habit, "--flow-decider", "habit", "--", "shop-server"]);
      const served = habit.stderr.slice(habit.stderr.indexOf("Next steps"));
      assert.deepEqual(served.match(/^\d+\. /gm), ["1. ", "2. "]);
      assert.ok(served.includes(`     stretto flow-diff ${flows.habit} ~/.stretto/shop-new.flow.json\n`));

      const reach = await decider(flows.reach, "--shadow");
      assert.deepEqual(reach.args.slice(4), ["--flow", flows.reach, "--flow-decider", "reach", "--flow-shadow", "--", "shop-server"]);
      assert.equal(reach.args[1], "~/.stretto/shadow/shop");
      assert.ok(reach.stderr.includes(`stretto promote --flow ${flows.reach} --sessions ~/.stretto/shadow/shop --decider reach --out ~/.stretto/shop-promoted.flow.json\n`));
      assert.ok(!reach.stderr.includes("TYPESAFE_API_KEY") && !reach.stderr.includes("--oracle-cache"));

      const arbiter = await decider(flows.arbiter, "--shadow", "--domain", "orders");
      assert.deepEqual(arbiter.args.slice(2), ["--domain", "orders", "--flow", flows.arbiter, "--flow-shadow", "--", "shop-server"]);
      assert.ok(arbiter.stderr.includes(`stretto promote --flow ${flows.arbiter} --sessions ~/.stretto/shadow/orders --oracle-cache ~/.stretto/oracle-cache --out ~/.stretto/orders-promoted.flow.json\n`));
      assert.ok(arbiter.stderr.includes("This flow has an arbiter, which asks TypeSafe's Jev at each decision"));
      assert.deepEqual(arbiter.stderr.slice(arbiter.stderr.indexOf("Next steps")).match(/^\d+\. /gm), ["1. ", "2. ", "3. "]);
    });
  });

  it("reads a flow at ~ from the home folder, and keeps the ~ for the host", async () => {
    const flows: Flows = await makeFlows();
    const home = tempDir("stretto-init-home-");
    writeFileSync(join(home, "shop.flow.json"), readFileSync(flows.reach));
    const r = await inProcess(["init", "--host", "cursor", "--flow", "~/shop.flow.json", "--", "shop-server"], { HOME: home });
    assert.equal(r.code, 0, r.stderr);
    const args = (JSON.parse(r.stdout) as { mcpServers: { shop: { args: string[] } } }).mcpServers.shop.args;
    assert.deepEqual(args.slice(4, 8), ["--flow", "~/shop.flow.json", "--flow-decider", "reach"]);
  });

  describe("--listen", () => {
    it("gives hosts the proxy's URL and the command that starts it", async () => {
      const cursor = await init("--host", "cursor", "--domain", "notes", "--listen", "0.0.0.0:8931", "--listen-token-file", "/etc/token", ...SERVER);
      assert.equal(cursor.code, 0, cursor.stderr);
      assert.deepEqual(JSON.parse(cursor.stdout), { mcpServers: { notes: { url: "http://127.0.0.1:8931/mcp", headers: { Authorization: "Bearer ${env:STRETTO_PROXY_TOKEN}" } } } });
      assert.ok(cursor.stderr.includes("The host sends the token from STRETTO_PROXY_TOKEN"));
      assert.ok(cursor.stderr.includes("The proxy listens on every address"));
      assert.ok(cursor.stderr.includes("1. Start the proxy, and keep it running: each host that connects to http://127.0.0.1:8931/mcp gets a session of its own.\n"));
      assert.ok(cursor.stderr.includes("     stretto-proxy --record ~/.stretto/logs/notes --domain notes --listen 0.0.0.0:8931 --listen-token-file /etc/token -- npx"));
      assert.ok(cursor.stderr.includes("Restart the proxy with the command this prints"));

      const code = await init("--host", "claude-code", "--domain", "notes", "--listen", "127.0.0.1:8931", "--listen-token-file", "/etc/token", ...SERVER);
      assert.equal(code.stdout, 'claude mcp add --transport http notes http://127.0.0.1:8931/mcp --header "Authorization: Bearer $(cat /etc/token)"\n');
      const vscode = await init("--host", "vscode", "--domain", "notes", "--listen", "[::1]:8931", ...SERVER);
      assert.deepEqual(JSON.parse(vscode.stdout), { servers: { notes: { type: "http", url: "http://[::1]:8931/mcp" } } });
      const desktop = await init("--host", "claude-desktop", "--domain", "notes", "--listen", "127.0.0.1:8931", ...SERVER);
      assert.deepEqual(JSON.parse(desktop.stdout), { mcpServers: { notes: { command: "stretto-proxy", args: ARGS } } });
      assert.ok(desktop.stderr.includes("so it runs a proxy of its own, over stdio, rather than connecting to the one at http://127.0.0.1:8931/mcp."));

      const file = join(tempDir("stretto-init-listen-"), ".mcp.json");
      const written = await init("--host", "claude-code", "--domain", "notes", "--listen", "127.0.0.1:8931", "--listen-token-file", "/etc/token", "--write", file, ...SERVER);
      assert.equal(written.code, 0, written.stderr);
      assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { mcpServers: { notes: { type: "http", url: "http://127.0.0.1:8931/mcp", headers: { Authorization: "Bearer ${STRETTO_PROXY_TOKEN}" } } } });
      assert.ok(written.stderr.includes("The host sends the token from STRETTO_PROXY_TOKEN"));
    });
  });

  describe("refusals", () => {
    it("usage errors exit 2 with the usage line", async () => {
      const bin = await stretto(["init", "--host", "zed", "--domain", "notes", ...SERVER]);
      assert.equal(bin.code, 2, bin.stderr);
      const cases: [string[], string][] = [
        [["--domain", "notes", ...SERVER], "init needs --host"],
        [["--host", "zed", "--domain", "notes", ...SERVER], "--host is one of claude-code, claude-desktop, cursor, vscode, not zed"],
        [["--host", "cursor", ...SERVER], "init needs --domain NAME or --flow FILE"],
        [["--host", "cursor", "--domain", "notes"], "init needs the server's command after --"],
        [["--host", "cursor", "--domain", "notes", "--shadow", ...SERVER], "--shadow needs --flow"],
        [["--host", "cursor", "--domain", "notes", "--force", ...SERVER], "--force needs --write"],
        [["--host", "cursor", "--domain", "retail", "--confirm-judge", "log", "--context", "c", ...SERVER], "--confirm-judge needs --guards"],
        [["--host", "cursor", "--domain", "retail", "--guards", "--context", "c", ...SERVER], "--context needs --confirm-judge"],
        [["--host", "cursor", "--domain", "retail", "--guards", "--confirm-judge", "maybe", "--context", "c", ...SERVER], "--confirm-judge is log or enforce"],
        [["--host", "cursor", "--domain", "notes", "--retain-days", "0", ...SERVER], "--retain-days needs a whole number of days, 1 or more, not 0"],
        [["--host", "cursor", "--domain", "notes", "--upstream", "http://x", ...SERVER], "--upstream cannot be used with a server command"],
        [["--host", "cursor", "--domain", "notes", "--upstream-header", "A=B", ...SERVER], "--upstream-header needs --upstream"],
        [["--host", "cursor", "--domain", "notes", "--listen-token-file", "t", ...SERVER], "--listen-token-file needs --listen"],
        [["--host", "cursor", "--domain", "notes", "--listen", "localhost:80", ...SERVER], "--listen takes an IP address and a port"],
        [["--host", "cursor", "--domain", "notes", "--bogus", ...SERVER], "init has no option --bogus"],
      ];
      for (const [args, reason] of cases) {
        const r = await init(...args);
        assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
        assert.ok(r.stderr.startsWith(`stretto: ${reason}`), r.stderr);
        assert.ok(r.stderr.includes("Usage: stretto init --host HOST"));
        assert.equal(r.stdout, "");
      }
    });

    it("values it cannot use exit 1 with the reason", async () => {
      const bin = await stretto(["init", "--host", "cursor", "--domain", "my notes", ...SERVER]);
      assert.equal(bin.code, 1, bin.stderr);
      const cases: [string[], string][] = [
        [["--domain", "../x", ...SERVER], '--domain "../x": the domain names the server, a directory and a flow\'s file, so use letters, digits, `-`, `_` and `.`'],
        [["--domain", "notes", "--upstream", "ftp://x"], '--upstream "ftp://x": the server\'s URL starts with http:// or https://'],
        [["--domain", "notes", "--upstream", "http://x", "--upstream-header", "Authorization="], "--upstream-header takes NAME=VAR, the header and the environment variable holding its value"],
        [["--domain", "notes", "--guards", ...SERVER], "--guards: there are no policy guards for notes; retail and airline have them"],
        [["--domain", "notes", "--listen", "127.0.0.1:0", ...SERVER], "--listen 127.0.0.1:0: hosts need the port the proxy listens on, not 0"],
        [["--domain", "notes", "--listen", "0.0.0.0:8931", ...SERVER], "--listen 0.0.0.0:8931: without --listen-token-file, the proxy listens only on a loopback address, such as 127.0.0.1:8931"],
        [["--flow", "/nonexistent/x.flow.json", ...SERVER], "reading /nonexistent/x.flow.json: "],
      ];
      for (const [args, reason] of cases) {
        const r = await init("--host", "cursor", ...args);
        assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
        assert.ok(r.stderr.startsWith(`stretto: ${reason}`), r.stderr);
        assert.equal(r.stdout, "");
      }
    });
  });

  describe("naming the proxy as the host finds it", () => {
    it("on PATH: by name, but by its full path for Claude Desktop", async () => {
      const bin = tempDir("stretto-init-path-");
      const proxy = fakeBin(bin, "stretto-proxy", "exit 0");
      for (const [host, named] of [["cursor", "stretto-proxy"], ["claude-desktop", proxy]] as const) {
        const r = await inProcess(["init", "--host", host, "--domain", "notes", ...SERVER], { PATH: `/nonexistent:${bin}` });
        assert.equal((JSON.parse(r.stdout) as { mcpServers: { notes: { command: string } } }).mcpServers.notes.command, named);
        assert.ok(!r.stderr.includes("not on PATH"), r.stderr);
      }
    });

    it("beside this stretto: by its full path; nowhere: by name, with a warning", async () => {
      const bin = tempDir("stretto-init-beside-");
      const proxy = fakeBin(bin, "stretto-proxy", "exit 0");
      symlinkSync(STRETTO, join(bin, "stretto"));
      const beside = await stretto(["init", "--host", "cursor", "--domain", "notes", ...SERVER], { exe: join(bin, "stretto") });
      assert.equal((JSON.parse(beside.stdout) as { mcpServers: { notes: { command: string } } }).mcpServers.notes.command, proxy);
      assert.ok(beside.stderr.startsWith("stretto: stretto-proxy is not on PATH, so the configuration names it by its full path\n"), beside.stderr);
      const nowhere = await init("--host", "cursor", "--domain", "notes", ...SERVER);
      assert.ok(nowhere.stderr.startsWith("stretto: stretto-proxy is not on PATH; install it before the host starts the server"), nowhere.stderr);
    });
  });

  describe("--write", () => {
    it("writes a new file (0600), refuses a second entry of the same name, and replaces it with --force", async () => {
      const dir = tempDir("stretto-init-write-");
      const file = join(dir, "sub", "claude_desktop_config.json");
      const first = await stretto(["init", "--host", "claude-desktop", "--domain", "notes", "--write", file, ...SERVER]);
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.stdout, "");
      assert.ok(first.stderr.includes(`stretto: wrote ${file}\n`));
      assert.ok(first.stderr.includes("Next steps"));
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { mcpServers: { notes: { command: "stretto-proxy", args: ARGS } } });

      const again = await stretto(["init", "--host", "claude-desktop", "--domain", "notes", "--write", file, "--", "other"]);
      assert.equal(again.code, 1);
      assert.ok(again.stderr.includes(`stretto: ${file} already has a server named notes: pass --force to replace that entry`), again.stderr);
      const forced = await init("--host", "claude-desktop", "--domain", "notes", "--write", file, "--force", "--", "other");
      assert.equal(forced.code, 0, forced.stderr);
      assert.ok(forced.stderr.includes(`stretto: replaced notes in ${file}\n`));
      const config = JSON.parse(readFileSync(file, "utf8")) as { mcpServers: { notes: { args: string[] } } };
      assert.deepEqual(config.mcpServers.notes.args.slice(-2), ["--", "other"]);
    });

    it("adds the entry to a file with other servers, leaving every other byte as it was", async () => {
      const dir = tempDir("stretto-init-merge-");
      const file = join(dir, "mcp.json");
      const before = '{\n    "mcpServers": {\n        "github": {\n            "command": "npx",\n            "args": ["-y", "@modelcontextprotocol/server-github"],\n            "env": {"GITHUB_TOKEN": "ghp_keep"}\n        },\n        "slack": { "command": "npx", "args": ["-y", "slack-mcp"] }\n    },\n    "theme": "dark"\n}\n';
      writeFileSync(file, before, { mode: 0o644 });
      const r = await init("--host", "cursor", "--domain", "notes", "--write", file, ...SERVER);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stderr.includes(`stretto: added notes to ${file}\n`));
      const after = readFileSync(file, "utf8");
      assertInsertion(before, after);
      const others = (JSON.parse(before) as { mcpServers: object }).mcpServers;
      assert.deepEqual(JSON.parse(after), { mcpServers: { ...others, notes: { command: "stretto-proxy", args: ARGS } }, theme: "dark" });
      assert.equal(statSync(file).mode & 0o777, 0o644);
    });

    it("merges into VS Code's file with comments, through a symbolic link", async () => {
      const dir = tempDir("stretto-init-jsonc-");
      const real = join(dir, "dotfiles-mcp.json");
      const before = '// my servers\n{\n\t"inputs": [],\n}\n';
      writeFileSync(real, before);
      mkdirSync(join(dir, ".vscode"));
      symlinkSync(real, join(dir, ".vscode", "mcp.json"));
      const r = await init("--host", "vscode", "--domain", "notes", "--write", join(dir, ".vscode", "mcp.json"), ...SERVER);
      assert.equal(r.code, 0, r.stderr);
      const after = readFileSync(real, "utf8");
      assert.ok(after.startsWith('// my servers\n{\n\t"inputs": [],'), after);
      assert.match(after, /^\t\t"notes": \{$/m);
      assert.ok(after.includes('\t\t\t"type": "stdio",\n'));
    });

    it("says why when the file cannot be made or read", async () => {
      const dir = tempDir("stretto-init-bad-");
      writeFileSync(join(dir, "plain"), "");
      const under = await init("--host", "cursor", "--domain", "notes", "--write", join(dir, "plain", "mcp.json"), ...SERVER);
      assert.equal(under.code, 1);
      assert.ok(under.stderr.includes(`stretto: creating ${join(dir, "plain")}: `), under.stderr);
      const device = await init("--host", "cursor", "--domain", "notes", "--write", "/dev/null", ...SERVER);
      assert.equal(device.code, 1);
      assert.ok(device.stderr.includes("stretto: writing /dev/null: not a regular file"), device.stderr);
      writeFileSync(join(dir, "broken.json"), '{"mcpServers": {');
      const broken = await init("--host", "cursor", "--domain", "notes", "--write", join(dir, "broken.json"), ...SERVER);
      assert.equal(broken.code, 1);
      assert.ok(broken.stderr.includes(`stretto: ${join(dir, "broken.json")} is not JSON that stretto can merge into (`), broken.stderr);
      assert.equal(readFileSync(join(dir, "broken.json"), "utf8"), '{"mcpServers": {');
    });
  });
});
