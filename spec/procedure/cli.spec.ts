import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanTemp, killAll, NODE, run, tempDir } from "../helpers/processes.js";
import { ANSWERS_OK, NO_DATA_TICKET, PROCEDURE_BIN, PUBLISHED } from "./procedure-fixtures.js";

const procedure = (args: string[], opts: Parameters<typeof run>[2] = {}) => run(NODE, [PROCEDURE_BIN, ...args], opts);
const USAGE = "Usage: stretto-procedure [OPTIONS] --procedure <FILE> -- <SERVER>...";

describe("stretto-procedure (the binary)", function () {
  this.timeout(60000);
  after(() => {
    killAll();
    cleanTemp();
  });

  it("runs the published procedure on an all-ok server: six calls, ids 1 to 7, handed back", async () => {
    const dir = tempDir();
    const seen = join(dir, "seen.jsonl");
    const r = await procedure(["--procedure", PUBLISHED, "--ticket", NO_DATA_TICKET, "--", "sh", "-c", `tee ${seen} | { ${ANSWERS_OK}; }`]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout.toString()) as { calls: Array<{ tool: string; arguments: object; failed: boolean }>; check: unknown; verdict: string };
    assert.equal(out.verdict, "hand_back");
    assert.equal(out.check, null);
    assert.deepEqual(
      out.calls.map((c) => [c.tool, c.arguments]),
      [
        ["get_customer_by_phone", { phone_number: "555-123-4567" }],
        ["check_status_bar", {}],
        ["toggle_data", {}],
        ["check_status_bar", {}],
        ["set_network_mode_preference", { mode: "4g_5g_preferred" }],
        ["run_speed_test", {}],
      ],
    );
    assert.ok(out.calls.every((c) => c.failed === false));
    assert.ok(r.stderr.endsWith("calls, handed back: its check failed\n"), r.stderr);
    assert.ok(r.stderr.includes("stretto-procedure: 6 calls, handed back: its check failed\n"), r.stderr);
    const sent = readFileSync(seen, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(sent.filter((m) => "id" in m).map((m) => m["id"]), [1, 2, 3, 4, 5, 6, 7]);
    assert.equal(
      readFileSync(seen, "utf8").split("\n")[0],
      '{"id":1,"jsonrpc":"2.0","method":"initialize","params":{"capabilities":{},"clientInfo":{"name":"stretto-procedure","version":"0.1.0"},"protocolVersion":"2025-06-18"}}',
    );
    assert.deepEqual(sent[1], { jsonrpc: "2.0", method: "notifications/initialized" });
    assert.deepEqual(sent[2], {
      id: 2,
      jsonrpc: "2.0",
      method: "tools/call",
      params: { arguments: { phone_number: "555-123-4567" }, name: "get_customer_by_phone" },
    });
  });

  it("prints the run in the reference's key order, two-space indented", async () => {
    const r = await procedure(["--procedure", PUBLISHED, "--ticket", NO_DATA_TICKET, "--", "sh", "-c", ANSWERS_OK]);
    const text = r.stdout.toString();
    assert.ok(
      text.startsWith('{\n  "calls": [\n    {\n      "tool": "get_customer_by_phone",\n      "arguments": {\n        "phone_number": "555-123-4567"\n      },\n      "failed": false\n    },\n    {\n      "tool": "check_status_bar",\n      "arguments": {},\n'),
      text,
    );
    assert.ok(text.endsWith('\n  ],\n  "check": null,\n  "verdict": "hand_back"\n}\n'), text);
  });

  it("with --ticket-file and --out writes the same run to the file and nothing to stdout", async () => {
    const dir = tempDir();
    const ticket = join(dir, "ticket.txt");
    const out = join(dir, "run.json");
    writeFileSync(ticket, `${NO_DATA_TICKET}\n`);
    const viaStdout = await procedure(["--procedure", PUBLISHED, "--ticket", NO_DATA_TICKET, "--", "sh", "-c", ANSWERS_OK]);
    const r = await procedure(["--procedure", PUBLISHED, "--ticket-file", ticket, "--out", out, "--", "sh", "-c", ANSWERS_OK]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.length, 0);
    assert.deepEqual(JSON.parse(readFileSync(out, "utf8")), JSON.parse(viaStdout.stdout.toString()));
    assert.ok(r.stderr.endsWith("stretto-procedure: 6 calls, handed back: its check failed\n"), r.stderr);
  });

  it("says what it could not read or write, exit 1, nothing on stdout", async () => {
    const dir = tempDir();
    const cases: Array<[string[], string]> = [
      [["--procedure", PUBLISHED, "--ticket-file", join(dir, "missing.txt")], `Error: reading ${join(dir, "missing.txt")}\n\nCaused by:\n    No such file or directory (os error 2)\n`],
      [["--procedure", PUBLISHED], "Error: give the ticket with --ticket or --ticket-file\n"],
      [["--procedure", join(dir, "p.json"), "--ticket", "x"], `Error: reading ${join(dir, "p.json")}: No such file or directory (os error 2)\n`],
      [["--procedure", PUBLISHED, "--ticket", NO_DATA_TICKET, "--out", join(dir, "no/such/run.json")], `Error: writing ${join(dir, "no/such/run.json")}\n\nCaused by:\n    No such file or directory (os error 2)\n`],
    ];
    for (const [args, stderr] of cases) {
      const r = await procedure([...args, "--", "sh", "-c", ANSWERS_OK]);
      assert.equal(r.code, 1, args.join(" "));
      assert.equal(r.stderr, stderr);
      assert.equal(r.stdout.length, 0);
    }
    const bad = join(dir, "bad.json");
    writeFileSync(bad, '{"stretto_procedure": 3}');
    const r = await procedure(["--procedure", bad, "--ticket", "x", "--", "sh", "-c", ANSWERS_OK]);
    assert.equal(r.stderr, "Error: procedure format 3 is not supported (this build reads 1)\n");
  });

  it("a server must start: spawn failure, and a server that ends before answering", async () => {
    const r = await procedure(["--procedure", PUBLISHED, "--ticket", "x", "--", "/nonexistent/stretto-server"]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, "Error: starting /nonexistent/stretto-server\n\nCaused by:\n    No such file or directory (os error 2)\n");
    const early = await procedure(["--procedure", PUBLISHED, "--ticket", "x", "--", "sh", "-c", "read -r line"]);
    assert.equal(early.code, 1);
    assert.equal(early.stderr, "Error: the server closed its output before answering initialize\n");
  });

  it("an error answer aborts the run with the error, and the server is stopped", async () => {
    const script =
      'n=0; while IFS= read -r line; do case "$line" in *\'"id"\'*) n=$((n+1)); if [ $n = 1 ]; then ' +
      'printf \'{"jsonrpc":"2.0","id":1,"result":{}}\\n\'; else ' +
      'printf \'{"error":{"code":-32602,"message":"Unknown tool: x"},"id":%d,"jsonrpc":"2.0"}\\n\' "$n"; fi;; esac; done';
    const r = await procedure(["--procedure", PUBLISHED, "--ticket", NO_DATA_TICKET, "--", "sh", "-c", script]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error: tools/call: {"code":-32602,"message":"Unknown tool: x"}\n');
    assert.equal(r.stdout.length, 0);
  });

  it("--timeout gives up on a server that does not answer", async () => {
    const started = Date.now();
    const r = await procedure(["--procedure", PUBLISHED, "--ticket", "x", "--timeout", "0.3", "--", "sh", "-c", "exec sleep 30"], {
      timeoutMs: 30000,
    });
    assert.equal(r.code, 1);
    assert.equal(r.stderr, "Error: the server did not answer initialize within 0.3 s\n");
    assert.ok(Date.now() - started < 15000, "the sleeping server was stopped");
  });

  it("usage errors exit 2 with clap's text; help and version exit 0", async () => {
    const cases: Array<[string[], string]> = [
      [["--ticket", "x", "--", "sh"], "error: the following required arguments were not provided:\n  --procedure <FILE>"],
      [["--procedure", PUBLISHED, "--ticket", "x"], "error: the following required arguments were not provided: <SERVER>..."],
      [["--procedure", PUBLISHED, "--ticket", "x", "--ticket-file", "f", "--", "sh"], "error: the argument '--ticket <TEXT>' cannot be used with '--ticket-file <FILE>'"],
      [["--procedure", PUBLISHED, "--bogus", "--", "sh"], "error: unexpected argument '--bogus' found"],
      [["--procedure", PUBLISHED, "--timeout", "soon", "--", "sh"], "error: invalid value 'soon' for '--timeout <SECONDS>'"],
    ];
    for (const [args, start] of cases) {
      const r = await procedure(args);
      assert.equal(r.code, 2, args.join(" "));
      assert.ok(r.stderr.startsWith(start), r.stderr);
      assert.ok(r.stderr.includes(`\n\n${USAGE}\n\nFor more information, try '--help'.\n`), r.stderr);
    }
    const help = await procedure(["--help"]);
    assert.equal(help.code, 0);
    assert.ok(help.stdout.toString().startsWith(`Run a compiled procedure on a ticket against an MCP server (stdio), with no model.\n\n${USAGE}\n`));
    for (const flag of ["--procedure <FILE>", "--ticket <TEXT>", "--ticket-file <FILE>", "--out <FILE>", "--timeout <SECONDS>", "<SERVER>..."]) {
      assert.ok(help.stdout.toString().includes(flag), flag);
    }
    const version = await procedure(["-V"]);
    assert.equal(version.stdout.toString(), "stretto-procedure 0.1.0\n");
  });

  it("the docs' CLI reference is the current help text", async () => {
    const help = (await procedure(["--help"])).stdout.toString();
    const docs = readFileSync(join(PUBLISHED, "../../../docs/procedure.md"), "utf8");
    assert.ok(docs.includes(`\`\`\`\n${help}\`\`\``), "docs/procedure.md holds the --help output in a code block");
  });
});
