import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import fc from "fast-check";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  forEachLine,
  headerJson,
  readEpisode,
  readEpisodeSync,
  streamLog,
  streamLogSync,
  isSessionLog,
  messages,
  parseLog,
  readLog,
  readSessions,
  sessionLogPaths,
  toJsonl,
} from "../../lib/trace/index.js";
import { HEADER } from "./log-fixtures.js";
import { forEachLineSync } from "../../lib/trace/read-log.js";
import type { LogEntry } from "../../lib/trace/index.js";

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail("expected an error");
}

async function rejection(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail("expected a rejection");
}

describe("trace: reading logs", () => {
  it("parses_the_header_and_entries", () => {
    const text = [
      HEADER,
      '{"t_ms":0,"from":"client","message":{"jsonrpc":"2.0","method":"notifications/initialized"}}',
      "",
      '{"t_ms":5,"from":"server","raw":"server starting"}',
      "",
    ].join("\n");
    const log = parseLog(text);
    assert.equal(log.header.session, "s1");
    assert.equal(log.header.started_unix_ms, 1_790_198_400_000);
    assert.deepEqual(log.header.server_command, ["demo-server", "--verbose"]);
    assert.deepEqual([log.header.domain, log.header.agent_model], [null, null]);
    assert.equal(log.entries.length, 2);
    assert.equal(log.entries[1]!.from, "server");
    assert.equal(log.entries[1]!.raw, "server starting");
    assert.equal([...messages(log)].length, 1);
  });

  it("tells_session_logs_from_the_logs_beside_them", () => {
    const kinds = ["s.jsonl", "s.flow.jsonl", "s.confirm.jsonl", "s.json"].map(isSessionLog);
    assert.deepEqual(kinds, [true, false, false, false]);
  });

  it("rejects_what_is_not_a_log", () => {
    assert.equal(errorOf(() => parseLog("")), "empty log: no header line");
    assert.equal(errorOf(() => parseLog(" \n\t\n")), "empty log: no header line");
    assert.equal(
      errorOf(() => parseLog('{"jsonrpc":"2.0","id":1}\n')),
      "line 1: not a stretto MCP log header: missing field `stretto_mcp_log`",
    );
    assert.equal(
      errorOf(() => parseLog("\n\nnot json\n")),
      "line 3: not a stretto MCP log header: not JSON: " + jsonError("not json"),
    );
    const v3 = HEADER.replace('"stretto_mcp_log":1', '"stretto_mcp_log":3');
    const e = errorOf(() => parseLog(v3));
    assert.ok(e.includes("version 3"), e);
    assert.equal(e, "unsupported log version 3 (this build reads versions 1 to 2)");
    assert.equal(
      errorOf(() => parseLog(HEADER.replace('"stretto_mcp_log":1', '"stretto_mcp_log":0') + "\n")),
      "unsupported log version 0 (this build reads versions 1 to 2)",
    );
    const bad = `${HEADER}\nnot an entry\n{"t_ms":1,"from":"client","raw":"x"}\n`;
    assert.equal(errorOf(() => parseLog(bad)), "line 2: not JSON: " + jsonError("not an entry"));
    const wrongPeer = `${HEADER}\n\n{"t_ms":1,"from":"host","raw":"x"}\n`;
    assert.equal(errorOf(() => parseLog(wrongPeer)), "line 3: `from` must be one of client, server, proxy, context");
    const noTime = `${HEADER}\n{"from":"client","raw":"x"}\n`;
    assert.equal(errorOf(() => parseLog(noTime)), "line 2: missing field `t_ms`");
    const negative = `${HEADER}\n{"t_ms":-1,"from":"client","raw":"x"}\n`;
    assert.equal(errorOf(() => parseLog(negative)), "line 2: `t_ms` must be >= 0");
  });

  it("drops_a_last_line_cut_off_mid_write", () => {
    const text = `${HEADER}\n{"t_ms":1,"from":"client","raw":"x"}\n{"t_ms":2,"from":"serv`;
    assert.equal(parseLog(text).entries.length, 1);
    // Only a last line, and only when the text is cut off: with its newline it is an error.
    assert.equal(errorOf(() => parseLog(text + "\n")), "line 3: not JSON: " + jsonError('{"t_ms":2,"from":"serv'));
    // Blank lines after it do not make it any less the last line.
    assert.equal(parseLog(`${text}\n  `).entries.length, 1);
    // A cut-off line that parses is kept.
    assert.equal(parseLog(`${HEADER}\n{"t_ms":1,"from":"client","raw":"x"}`).entries.length, 1);
  });

  it("reads what serde reads: defaults, nulls and unknown keys", () => {
    const text = [
      '{"stretto_mcp_log":2,"session":"s","started_unix_ms":7,"protocol":"2026-07-28","host_session":null}',
      '{"t_ms":1,"from":"proxy","message":null,"raw":"r","extra":true}',
      '{"t_ms":2,"from":"context","message":{"role":"user","content":"hi"}}',
      "",
    ].join("\n");
    const log = parseLog(text);
    assert.deepEqual(log.header, {
      stretto_mcp_log: 2,
      session: "s",
      started_unix_ms: 7,
      server_command: [],
      domain: null,
      agent_model: null,
    });
    assert.deepEqual(log.entries, [
      { t_ms: 1, from: "proxy", raw: "r" },
      { t_ms: 2, from: "context", message: { role: "user", content: "hi" } },
    ]);
  });

  it("writes headers and entries back as the proxy does", () => {
    const log = parseLog(`${HEADER}\n{"t_ms":1,"from":"client","raw":"x"}\n`);
    assert.equal(toJsonl(log), `${HEADER}\n{"t_ms":1,"from":"client","raw":"x"}\n`);
    log.header.host_session = "task-1";
    log.header.server_name = "shop";
    assert.equal(headerJson(log.header), HEADER.replace(/}$/, ',"host_session":"task-1","server_name":"shop"}'));
  });

  describe("from files, as a stream", () => {
    let dir = "";
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), "stretto-trace-read-"));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it("says_which_file_it_could_not_read", async () => {
      assert.equal(
        await rejection(readLog("/nonexistent/session.jsonl")),
        "reading /nonexistent/session.jsonl: No such file or directory (os error 2)",
      );
      assert.equal(await rejection(readLog(dir)), `reading ${dir}: Is a directory (os error 21)`);
      const bad = join(dir, "bad.jsonl");
      await writeFile(bad, `${HEADER}\nnot an entry\n{"t_ms":1,"from":"client","raw":"x"}\n`);
      assert.equal(await rejection(readLog(bad)), `parsing ${bad}: line 2: not JSON: ${jsonError("not an entry")}`);
      const latin1 = join(dir, "latin1.jsonl");
      await writeFile(latin1, Buffer.concat([Buffer.from(`${HEADER}\n{"t_ms":1,"from":"client","raw":"caf`), Buffer.from([0xe9]), Buffer.from('"}\n')]));
      assert.equal(await rejection(readLog(latin1)), `reading ${latin1}: stream did not contain valid UTF-8`);
      const empty = join(dir, "empty.jsonl");
      await writeFile(empty, "");
      assert.equal(await rejection(readLog(empty)), `parsing ${empty}: empty log: no header line`);
    });

    it("splits lines across chunk boundaries, keeps CRLF lines and finds a cut-off end", async () => {
      const big = "é".repeat(700_000); // 1.4 MB of two-byte characters: straddles 1 MiB reads
      const lines = [
        HEADER,
        JSON.stringify({ t_ms: 1, from: "server", raw: big }),
        '{"t_ms":2,"from":"client","raw":"crlf"}\r',
        "",
        JSON.stringify({ t_ms: 3, from: "server", raw: "ü".repeat(600_000) }),
      ];
      const path = join(dir, "s.jsonl");
      await writeFile(path, lines.join("\n") + '\n{"t_ms":4,"fr');
      const log = await readLog(path);
      assert.deepEqual(log.entries.map((e) => [e.t_ms, e.raw!.length]), [[1, 700_000], [2, 4], [3, 600_000]]);
      assert.equal(log.entries[0]!.raw, big);
      const seen: [number, number][] = [];
      const ended = await forEachLine(path, (n, text) => {
        seen.push([n, text.length]);
      });
      assert.equal(ended, false);
      assert.deepEqual(seen.map(([n]) => n), [1, 2, 3, 4, 5, 6]);
      assert.equal(seen[2]![1], '{"t_ms":2,"from":"client","raw":"crlf"}'.length);
      await writeFile(path, `${HEADER}\n`);
      assert.equal(await forEachLine(path, () => undefined), true);
      // Told to stop, it reads no further.
      let read = 0;
      await writeFile(path, "a\nb\nc\n");
      assert.equal(await forEachLine(path, (n) => (read = n) === 2), false);
      assert.equal(read, 2);
    });

    it("reads the same lines, entries, episodes and errors synchronously as it streams them", async () => {
      const files: [string, string | Buffer][] = [
        ["bad.jsonl", `${HEADER}\nnot an entry\n{"t_ms":1,"from":"client","raw":"x"}\n`],
        ["latin1.jsonl", Buffer.concat([Buffer.from(`${HEADER}\n{"t_ms":1,"from":"client","raw":"caf`), Buffer.from([0xe9]), Buffer.from('"}\n')])],
        ["empty.jsonl", ""],
        ["cut.jsonl", `${HEADER}\n${JSON.stringify({ t_ms: 1, from: "server", raw: "é".repeat(700_000) })}\r\n\n{"t_ms":4,"fr`],
        ["good.jsonl", `${HEADER}\n{"t_ms":0,"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}}\n`],
      ];
      for (const [name, text] of files) await writeFile(join(dir, name), text);
      const outcome = async (read: (path: string, into: LogEntry[]) => Promise<void> | void, path: string) => {
        const entries: LogEntry[] = [];
        try {
          await read(path, entries);
          return { entries };
        } catch (e) {
          return { entries, error: (e as Error).message };
        }
      };
      for (const path of [...files.map(([name]) => join(dir, name)), dir, "/nonexistent/session.jsonl"]) {
        const streamed = await outcome((p, into) => streamLog(p, { entry: (e) => into.push(e) }), path);
        const synced = await outcome((p, into) => streamLogSync(p, { entry: (e) => into.push(e) }), path);
        assert.deepStrictEqual(synced, streamed, path);
        if (streamed.error === undefined) assert.deepStrictEqual(readEpisodeSync(path), await readEpisode(path));
      }
      // Any text, split into lines the same way, with the same answer about its last byte.
      const piece = fc.oneof(fc.string({ unit: "grapheme" }), fc.constantFrom("\r", "\n", "\r\n", ""), fc.tuple(fc.constantFrom("a", "é", "\n"), fc.integer({ min: 60_000, max: 70_000 })).map(([c, n]) => c.repeat(n)));
      const path = join(dir, "any.jsonl");
      await fc.assert(
        fc.asyncProperty(fc.array(piece, { maxLength: 12 }), fc.integer({ min: 0, max: 8 }), async (pieces, stopAt) => {
          await writeFile(path, pieces.join(""));
          const streamed: [number, string][] = [];
          const synced: [number, string][] = [];
          const ended = await forEachLine(path, (n, t) => (streamed.push([n, t]), n === stopAt));
          assert.equal(forEachLineSync(path, (n, t) => (synced.push([n, t]), n === stopAt)), ended);
          assert.deepStrictEqual(synced, streamed);
        }),
        { numRuns: 40 },
      );
    });

    it("lists and reads the session logs of a folder, in session order", async () => {
      const log = (session: string): string => HEADER.replace('"s1"', JSON.stringify(session)) + "\n";
      await writeFile(join(dir, "a.jsonl"), log("20260101T000000.000Z-2"));
      await writeFile(join(dir, "b.jsonl"), log("20250101T000000.000Z-1"));
      await writeFile(join(dir, "a.flow.jsonl"), "not a session log");
      await writeFile(join(dir, "a.confirm.jsonl"), "not a session log");
      await writeFile(join(dir, "notes.txt"), "not a log");
      await mkdir(join(dir, "nested"));
      await writeFile(join(dir, "nested", "c.jsonl"), log("c"));
      assert.deepEqual(await sessionLogPaths(dir), [join(dir, "a.jsonl"), join(dir, "b.jsonl")]);
      const sessions = (await readSessions(dir)).map((l) => l.header.session);
      assert.deepEqual(sessions, ["20250101T000000.000Z-1", "20260101T000000.000Z-2"]);
      assert.equal(await rejection(readSessions(join(dir, "a.jsonl"))), `listing ${join(dir, "a.jsonl")}: Not a directory (os error 20)`);
    });
  });
});

/** What JSON.parse says of `text`, as this Node.js words it. */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  return "";
}
