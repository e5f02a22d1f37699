/**
 * A host session's logs across servers are one conversation: every proxy logs the
 * customer's words. Redaction counts them as the one session they merge into, so a value
 * one customer typed is not taken for one that two sessions share.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NODE, STRETTO, cleanTemp, run, sessionLogs, tempDir } from "../helpers/processes.js";

/** A log of server `server` in host session `host`, started at `start`, where the customer types an email. */
function log(dir: string, session: string, host: string, server: string, start: number): void {
  const lines = [
    { stretto_mcp_log: 2, session, started_unix_ms: start, server_command: [server], domain: null, agent_model: null, host_session: host, server_name: server },
    { t_ms: 1, from: "context", message: { role: "user", content: "Hi, I'm c9@example.com." } },
    { t_ms: 2, from: "client", message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "find", arguments: { email: "c9@example.com" } } } },
    { t_ms: 50, from: "server", message: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "found" }] } } },
  ];
  writeFileSync(join(dir, `${session}.jsonl`), lines.map((l) => JSON.stringify(l) + "\n").join(""));
}

async function redacted(hosts: [string, string]): Promise<string> {
  const dir = tempDir();
  log(dir, "s1", hosts[0], "shop", 1_000);
  log(dir, "s2", hosts[1], "notes", 1_010);
  const out = tempDir();
  const r = await run(NODE, [STRETTO, "redact", "--sessions", dir, "--out", out, "--keep-shared", "2"], { env: { ...process.env, STRETTO_REDACT_SALT: "s" } });
  assert.equal(r.code, 0, r.stderr);
  return sessionLogs(out).map((p) => readFileSync(p, "utf8")).join("");
}

describe("redact: the logs of one host session", () => {
  after(cleanTemp);

  it("count as one session", async () => {
    assert.ok(!(await redacted(["task-1", "task-1"])).includes("c9@example.com"), "one customer's email, logged by two proxies, is hashed");
    assert.ok((await redacted(["task-1", "task-2"])).includes("c9@example.com"), "two sessions that share the email keep it");
  });
});
