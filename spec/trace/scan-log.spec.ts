import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fullScan, scanLog, toJsonl } from "../../lib/trace/index.js";
import { HEADER, call, logOf, reply } from "./log-fixtures.js";

describe("trace: a log's summary read from its ends", () => {
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "stretto-trace-scan-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const named = HEADER.replace('"agent_model":null', '"agent_model":null,"host_session":"h","server_name":"shop"');
  const entry = (t: number, raw = "x"): string => JSON.stringify({ t_ms: t, from: "server", raw });
  const cases: [string, string, number, string | undefined][] = [
    ["named, entries", `${named}\n${entry(1)}\n${entry(7)}\n`, 7, "shop"],
    ["named, header only", `${named}\n`, 0, "shop"],
    ["named, blank lines and CRLF at the end", `${named}\r\n${entry(3)}\r\n\r\n  \n`, 3, "shop"],
    ["named, last line cut off mid-write", `${named}\n${entry(4)}\n{"t_ms":9,"fr`, 4, "shop"],
    ["named, cut off after blank lines", `${named}\n${entry(4)}\n\n{"t_ms":9,"fr`, 4, "shop"],
    ["named, the only entry cut off", `${named}\n{"t_ms":9,"fr`, 0, "shop"],
    ["named, a last line longer than one read", `${named}\n${entry(2)}\n${entry(5, "é".repeat(100_000))}\n`, 5, "shop"],
    ["named, blank lines before the header", `\n  \n${named}\n${entry(6)}`, 6, "shop"],
    ["named, blank lines before a header-only log", `\n\n${named}\n\n`, 0, "shop"],
    ["named, many lines", `${named}\n${Array.from({ length: 5000 }, (_, i) => entry(i)).join("\n")}\n`, 4999, "shop"],
    [
      "unnamed: the server names itself",
      toJsonl(logOf([["server", { jsonrpc: "2.0", id: 0, result: { serverInfo: { name: "Demo Server" } } }], call(1, "a"), reply(1, "b")])),
      2000,
      "Demo_Server",
    ],
    ["unnamed, never named", toJsonl(logOf([call(1, "a"), reply(1, "b")])), 1000, undefined],
  ];
  for (const [name, text, lastTMs, server] of cases) {
    it(`reads the same as a full read: ${name}`, async () => {
      const path = join(dir, "s.jsonl");
      await writeFile(path, text);
      const full = await fullScan(path);
      assert.deepEqual([full.lastTMs, full.serverName], [lastTMs, server]);
      assert.deepEqual(await scanLog(path), full);
    });
  }

  it("leaves what it cannot settle to the full read, which says why", async () => {
    const path = join(dir, "s.jsonl");
    await writeFile(path, `${named}\n${entry(1)}\nnot an entry\n`);
    await assert.rejects(scanLog(path), (e: Error) => e.message.startsWith(`parsing ${path}: line 3: not JSON: `));
    await writeFile(path, "");
    await assert.rejects(scanLog(path), { message: `parsing ${path}: empty log: no header line` });
    await assert.rejects(scanLog(join(dir, "none.jsonl")), {
      message: `reading ${join(dir, "none.jsonl")}: No such file or directory (os error 2)`,
    });
  });
});
