/**
 * Which parts of each kind of entry are data: the proxy's own texts in every form the
 * proxy writes (refusals, commit reports, flow appendices), batches, the server's notifications and
 * errors, the host's answers to the server, raw lines; and what is kept as it was.
 */
import assert from "node:assert/strict";
import { redactLogs } from "../../lib/redact/index.js";
import { parseLog, type McpLog } from "../../lib/trace/index.js";

const H = /h_[0-9a-f]{12}/;
const header = { stretto_mcp_log: 2, session: "s0", started_unix_ms: 0, server_command: [], domain: null, agent_model: null };
const logOf = (entries: unknown[]): McpLog => parseLog([header, ...entries].map((l) => JSON.stringify(l) + "\n").join(""));
const call = (from: string, id: unknown, name: string, args: object) => ({ t_ms: 0, from, message: { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } } });
const textAnswer = (from: string, id: unknown, text: string, isError = false) => ({ t_ms: 0, from, message: { jsonrpc: "2.0", id, result: { content: [{ type: "text", text }], isError } } });
/** One session: every value in it is rare, so every value of two or more characters is hashed. */
const redact = (entries: unknown[]) => redactLogs([logOf(entries)], { salt: "s", keepShared: 2, hashFields: [] })[0]!.entries;
const textOf = (m: unknown, i = 0) => (m as { result: { content: Array<{ text: string }> } }).result.content[i]!.text;
const argOf = (m: unknown) => Object.values((m as { params: { arguments: Record<string, string> } }).params.arguments)[0]!;

describe("redact: what is data in each kind of entry", () => {
  it("a commit report: quoted calls as JSON, their results as tool text, what became of the rest kept as the proxy wrote it", () => {
    const report = [
      'get_order_details {"order_id":"#W7a"}:\n{"order_id":"#W7a","status":"pending"}',
      'get_order_details {"order_id":"#W7c"} (error):\nOrder #W7c not found',
      'cancel_pending_order {"order_id":"#W7b","reason":"found it cheaper"} was refused by the policy check: \'found it cheaper\' is not an accepted reason (policy check retail.cancel_reason)',
      'get_user_details {"user_id":"user_7"} got no answer from the server',
      'find_user_id_by_email {"email":"c7@example.com"} was not run',
    ].join("\n\n");
    const out = redact([
      call("client", 1, "get_order_details", { order_id: "#W7a" }),
      call("client", 2, "stretto_commit", { calls: [] }),
      textAnswer("proxy", 2, report, true),
    ]);
    const order = argOf(out[0]!.message);
    assert.match(order, H);
    const lines = textOf(out[2]!.message).split("\n");
    assert.equal(lines[0], `get_order_details {"${lines[0]!.split('"')[1]}":"${order}"}:`);
    assert.match(lines[1]!, new RegExp(`^\\{"h_[0-9a-f]{12}":"${order}","h_[0-9a-f]{12}":"h_[0-9a-f]{12}"\\}$`));
    assert.equal(lines[2], "");
    assert.match(lines[3]!, /^get_order_details \{"h_[0-9a-f]{12}":"h_[0-9a-f]{12}"\} \(error\):$/);
    assert.match(lines[4]!, /^h_[0-9a-f]{12}$/, "a line of a plain-text result is one value");
    assert.match(lines[6]!, /^cancel_pending_order \{"h_\w{12}":"h_\w{12}","h_\w{12}":"h_\w{12}"\} was refused by the policy check: 'h_\w{12}' (h_\w{12} ){5}\(policy check retail\.cancel_reason\)$/);
    assert.match(lines[8]!, /^get_user_details \{"h_\w{12}":"h_\w{12}"\} got no answer from the server$/);
    assert.match(lines[10]!, /^find_user_id_by_email \{"h_\w{12}":"h_\w{12}"\} was not run$/);
    assert.equal(lines.length, 11);
    for (const gone of ["#W7", "W7", "user_7", "c7@", "cheaper"]) assert.ok(!textOf(out[2]!.message).includes(gone), gone);
  });

  it("a refusal keeps its sentence and rule, a commit usage text is kept whole, the flow's copy keeps the server's items as they were rewritten", () => {
    const usage = 'stretto_commit takes {"calls": [{"name": tool, "arguments": {...}}, ...]}, one or more calls of the server\'s tools; nothing was run.';
    const appendix = '--- Also looked up automatically (current results; no need to repeat these calls) ---\n\nget_user_details {"user_id":"user_7"}:\n{"user_id":"user_7"}\n\nget_order_details {"order_id":"#W9"} (error):\nOrder not found';
    const out = redact([
      call("client", 1, "cancel_pending_order", { order_id: "#W7a", reason: "changed my mind" }),
      textAnswer("proxy", 1, "Refused by the policy check, so cancel_pending_order was not run and nothing changed: 'changed my mind' is not an accepted reason (policy check retail.cancel_reason); no order looked up (policy check retail.status_checked).", true),
      call("client", 2, "stretto_commit", {}),
      textAnswer("proxy", 2, usage, true),
      call("client", 3, "find_user_id_by_email", { email: "c7@example.com" }),
      textAnswer("server", 3, "user_7"),
      { t_ms: 0, from: "proxy", message: { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "user_7" }, { type: "text", text: appendix }] } } },
    ]);
    assert.match(
      textOf(out[1]!.message),
      /^Refused by the policy check, so cancel_pending_order was not run and nothing changed: 'h_\w{12}' (h_\w{12} ){5}\(policy check retail\.cancel_reason\); (h_\w{12} ){4}\(policy check retail\.status_checked\)\.$/,
    );
    assert.equal(textOf(out[3]!.message), usage);
    const user = textOf(out[5]!.message);
    assert.match(user, H);
    assert.equal(textOf(out[6]!.message, 0), user);
    const [head, , quoted, result, , failed, why] = textOf(out[6]!.message, 1).split("\n");
    assert.equal(head, "--- Also looked up automatically (current results; no need to repeat these calls) ---");
    assert.match(quoted!, new RegExp(`^get_user_details \\{"h_\\w{12}":"${user}"\\}:$`));
    assert.match(result!, new RegExp(`^\\{"h_\\w{12}":"${user}"\\}$`));
    assert.match(failed!, /^get_order_details \{"h_\w{12}":"h_\w{12}"\} \(error\):$/);
    assert.match(why!, /^h_\w{12}$/);
  });

  it("batches, notifications, errors, the host's answers and raw lines are data; initialize, other requests and the times are not", () => {
    const entries = [
      { t_ms: 1, from: "client", message: { jsonrpc: "2.0", id: 0, method: "initialize", params: { clientInfo: { name: "my-host", version: "1.2" } } } },
      { t_ms: 2, from: "client", message: [call("client", 1, "get", { q: "secret_1" }).message, call("client", 2, "get", { q: "secret_2" }).message] },
      { t_ms: 3, from: "server", message: [textAnswer("server", 1, "secret_3").message, { jsonrpc: "2.0", id: 2, error: { code: -32000, message: "no secret_4 here", data: { who: "secret_5" } } }] },
      { t_ms: 4, from: "server", message: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "secret_6" } } },
      { t_ms: 5, from: "server", message: { jsonrpc: "2.0", id: "r1", method: "roots/list" } },
      { t_ms: 6, from: "client", message: { jsonrpc: "2.0", id: "r1", result: { roots: [{ uri: "file:///home/secret_7" }] } } },
      { t_ms: 7, from: "client", message: { jsonrpc: "2.0", id: 9, method: "resources/read", params: { uri: "file:///kept" } } },
      { t_ms: 8, from: "server", raw: "starting secret_8" },
      { t_ms: 9, from: "proxy", message: { jsonrpc: "2.0", id: 9, error: { code: -32000, message: "upstream secret_9 failed" } } },
    ];
    const out = redact(entries);
    const text = JSON.stringify(out);
    for (let n = 1; n <= 9; n++) assert.ok(!text.includes(`secret_${n}`), `secret_${n} in ${text}`);
    assert.deepEqual(out[0], entries[0], "initialize is kept");
    assert.deepEqual(out[6], entries[6], "another request is kept");
    assert.deepEqual(out.map((e) => [e.t_ms, e.from]), entries.map((e) => [e.t_ms, e.from]));
    assert.equal((out[2]!.message as Array<{ error?: { code: number } }>)[1]!.error!.code, -32000);
  });
});
