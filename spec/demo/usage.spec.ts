import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import { USAGE, runDemo, stopAll } from "./demo-process.js";

const HELP = `A tiny MCP server over stdio, for trying stretto-proxy.\n\n${USAGE}\n`;

describe("stretto-mcp-demo's command line", () => {
  afterEach(stopAll);

  for (const flag of ["-h", "--help"]) {
    it(`${flag} alone prints what it is and its usage on stdout, exit 0`, async () => {
      const run = await runDemo([flag]);
      assert.deepEqual([run.code, run.stdout.toString(), run.stderr], [0, HELP, ""]);
    });
  }

  for (const flag of ["-V", "--version"]) {
    it(`${flag} alone prints its version, exit 0`, async () => {
      const run = await runDemo([flag]);
      assert.deepEqual([run.code, run.stdout.toString(), run.stderr], [0, "stretto-mcp-demo 0.1.0\n", ""]);
    });
  }

  const refused = [
    ["--world", "mars"],
    ["--hint", "lookup=maybe"],
    ["--hint", "lookup"],
    ["--port"],
    ["-h", "extra"],
    // Also: a flag missing its value, help among others, a bad hint after good flags.
    ["--world"],
    ["--world", "retail", "--hide"],
    ["--help", "--world", "echo"],
    ["--world", "retail", "--hint", "lookup=true"],
    ["--hint", "a=b=false"],
    ["--port", "1", "--world", "echo"],
  ];
  for (const args of refused) {
    it(`refuses ${JSON.stringify(args)}: usage on stderr, nothing on stdout, exit 2`, async () => {
      const run = await runDemo(args, '{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
      assert.deepEqual([run.code, run.stdout.toString(), run.stderr], [2, "", `${USAGE}\n`]);
    });
  }

  it("takes --hide, --hint and --require-auth in the echo world, where they change nothing", async () => {
    const run = await runDemo(
      ["--hide", "lookup", "--hint", "update=none", "--hint", "=false", "--require-auth", "x", "--world", "echo"],
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup"}}\n',
    );
    assert.equal(run.stderr, "");
    assert.equal(run.code, 0);
    assert.equal(
      run.stdout.toString(),
      '{"id":1,"jsonrpc":"2.0","result":{"content":[{"text":"{}","type":"text"}],"isError":false}}\n',
    );
  });

  it("exits 0 at once on empty input, saying nothing", async () => {
    const run = await runDemo([]);
    assert.deepEqual([run.code, run.stdout.toString(), run.stderr], [0, "", ""]);
  });

  it("exits 1 when --http names no address it can listen on", async () => {
    for (const addr of ["127.0.0.1", "127.0.0.1:99999", "127.0.0.1:x"]) {
      const run = await runDemo(["--http", addr]);
      assert.equal(run.code, 1, addr);
      assert.equal(run.stdout.toString(), "", addr);
      assert.match(run.stderr, /^stretto-mcp-demo: /, addr);
    }
  });

  it("exits 1 when the --http port is taken", async () => {
    const taken: Server = createServer();
    await new Promise<void>((r) => taken.listen(0, "127.0.0.1", r));
    try {
      const { port } = taken.address() as { port: number };
      const run = await runDemo(["--http", `127.0.0.1:${port}`]);
      assert.equal(run.code, 1);
      assert.equal(run.stdout.toString(), "");
      assert.match(run.stderr, /^stretto-mcp-demo: listening on 127\.0\.0\.1:\d+: .*EADDRINUSE/);
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });
});
