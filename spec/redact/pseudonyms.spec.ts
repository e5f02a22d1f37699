/**
 * The redaction rule on logs held in memory (docs/redact.md): what few
 * sessions share is hashed, what many share is kept, one value has one hash everywhere,
 * a phrase typed in the conversation gets its record's hash, named fields are hashed
 * however shared, and declared names are kept however rare.
 */
import assert from "node:assert/strict";
import { redactLogs } from "../../lib/redact/index.js";
import { parseLog, toJsonl, type McpLog } from "../../lib/trace/index.js";
import { isObject } from "../../lib/util/is-object.js";
import { aString, argsOf, loggedMessage, valueAt } from "./logged-message.js";

const header = (session: string) => ({ stretto_mcp_log: 2, session, started_unix_ms: 0, server_command: ["demo"], domain: "shop", agent_model: null });
const logOf = (lines: unknown[]): McpLog => parseLog(lines.map((l) => JSON.stringify(l) + "\n").join(""));
const call = (t: number, id: number, name: string, args: object) => ({ t_ms: t, from: "client", message: { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } } });
const answer = (t: number, id: number, text: string) => ({ t_ms: t, from: "server", message: { jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } } });
const said = (t: number, content: string) => ({ t_ms: t, from: "context", message: { role: "user", content } });
const msg = (log: McpLog, i: number) => loggedMessage(log.entries[i]!.message);
const opts = (salt = "salt", hashFields: string[] = []) => ({ salt, keepShared: 3, hashFields });

function customer(i: number): McpLog {
  const email = `c${i}@x.com`;
  const user = `user_${i}`;
  return logOf([
    header(`s${i}`),
    said(0, `Hi, I'm ${email}. Cancel my order, please!`),
    call(1, 1, "find", { email }),
    answer(2, 1, user),
    call(3, 2, "get", { user_id: user }),
    answer(4, 2, JSON.stringify({ user_id: user, status: "pending", cards: { [`card_${user}`]: 1 } })),
    { t_ms: 5, from: "client", message: { jsonrpc: "2.0", id: 3, method: "tools/list" } },
  ]);
}

describe("redact: the rule", () => {
  it("hashes what few sessions share, keeps the rest, and gives a value one hash everywhere", () => {
    const logs = [0, 1, 2, 3].map(customer);
    const out = redactLogs(logs, opts());
    const text = toJsonl(out[0]!);
    assert.ok(!text.includes("c0@x.com") && !text.includes("user_0"), text);
    for (const kept of ["pending", "status", "Cancel", "user_id", "tools/list"]) assert.ok(text.includes(kept), `${kept} in ${text}`);
    const email = aString(argsOf(msg(out[0]!, 1))["email"]);
    assert.match(email, /^h_[0-9a-f]{12}$/);
    assert.ok(aString(msg(out[0]!, 0).content).includes(`${email}. Cancel`));
    const user = aString(msg(out[0]!, 2).result?.content?.[0]?.text);
    assert.match(user, /^h_[0-9a-f]{12}$/);
    assert.equal(argsOf(msg(out[0]!, 3))["user_id"], user);
    const record: unknown = JSON.parse(aString(msg(out[0]!, 4).result?.content?.[0]?.text));
    assert.equal(valueAt(record, "user_id"), user);
    const cards = valueAt(record, "cards");
    assert.ok(isObject(cards) && Object.keys(cards).every((k) => k.startsWith("h_")), JSON.stringify(record));
    // Another salt, other hashes.
    const other = redactLogs(logs, opts("pepper"));
    assert.notDeepEqual(other[0]!.entries[1]!.message, out[0]!.entries[1]!.message);
    // The logs given are untouched.
    assert.ok(toJsonl(logs[0]!).includes("c0@x.com"));
  });

  it("replaces a value of several words typed in the conversation by its record's hash", () => {
    const logs = [0, 1, 2, 3].map((i) => {
      const typed = i === 0 ? "Return the Desk Lamp, order W1 please." : `Return the desk and the lamp, order W${i + 1}0 please.`;
      const record = i === 0 ? { order_id: "#W1", items: [{ name: "Desk Lamp" }] } : { order_id: `#W${i + 1}0`, items: [{ name: "Chair" }] };
      return logOf([header(`s${i}`), said(0, typed), call(1, 1, "get", {}), answer(2, 1, JSON.stringify(record))]);
    });
    const out = redactLogs(logs, opts());
    const record: unknown = JSON.parse(aString(msg(out[0]!, 2).result?.content?.[0]?.text));
    const item = aString(valueAt(record, "items", 0, "name"));
    const order = aString(valueAt(record, "order_id"));
    assert.match(item, /^h_/);
    assert.match(order, /^h_/);
    assert.equal(msg(out[0]!, 0).content, `Return the ${item}, order ${order} please.`);
    // Where the words stand alone, they are kept: four sessions share them.
    assert.equal(aString(msg(out[1]!, 0).content).split(", order")[0], "Return the desk and the lamp");
  });

  it("hashes named fields however shared, and keeps the names the schemas declare however rare", () => {
    const logs = [0, 1, 2, 3].map((i) => {
      const args: Record<string, string> = { full_name: "Ada Lovelace" };
      if (i === 0) args["rare_flag"] = "seldom";
      const tools = [{ name: "find", inputSchema: { type: "object", properties: { full_name: { type: "string" }, rare_flag: { type: "string", enum: ["seldom"] } } } }];
      return logOf([
        header(`s${i}`),
        said(0, "Hi, I'm Ada Lovelace."),
        { t_ms: 1, from: "client", message: { jsonrpc: "2.0", id: 1, method: "tools/list" } },
        { t_ms: 2, from: "server", message: { jsonrpc: "2.0", id: 1, result: { tools } } },
        call(3, 2, "find", args),
        answer(4, 2, JSON.stringify({ user_id: "ada_1", name: { first: "Ada", last: "Lovelace" } })),
      ]);
    });
    const shared = toJsonl(redactLogs(logs, opts())[0]!);
    for (const kept of ["ada_1", "Ada Lovelace", "rare_flag", "seldom"]) assert.ok(shared.includes(kept), `${kept} in ${shared}`);
    const out = redactLogs(logs, opts("salt", ["user_id", "name", "full_name"]));
    const hashed = toJsonl(out[0]!);
    for (const gone of ["ada_1", "Ada", "Lovelace"]) assert.ok(!hashed.includes(gone), `${gone} in ${hashed}`);
    for (const kept of ["user_id", "first", "last", "full_name", "rare_flag"]) assert.ok(hashed.includes(kept), `${kept} in ${hashed}`);
    const line = aString(msg(out[0]!, 0).content);
    // "Ada Lovelace" is a hashed value of two words: typed, it is replaced whole.
    assert.match(line, /^Hi, I'm h_[0-9a-f]{12}\.$/);
  });

  it("hashes with SHA-256 of the salt, a NUL and the normalized value", async () => {
    const { createHash } = await import("node:crypto");
    const logs = [logOf([header("s0"), call(1, 1, "get", { order_id: "  #W7A " })])];
    const out = redactLogs(logs, opts("a secret salt"));
    const expected = "h_" + createHash("sha256").update("a secret salt\0w7a").digest("hex").slice(0, 12);
    // One session: the key is as rare as the value, and hashed too.
    assert.deepEqual(Object.values(argsOf(msg(out[0]!, 0))), [expected]);
  });

  it("makes a hashed number a string, and keeps what is no data", () => {
    const init = { t_ms: 0, from: "client", message: { jsonrpc: "2.0", id: 0, method: "initialize", params: { clientInfo: { name: "rare-host", version: "9" } } } };
    const logs = [logOf([header("s0"), init, call(1, 1, "get", { n: 123457 }), { t_ms: 2, from: "server", raw: "Listening on 127.0.0.1:7777" }])];
    const out = redactLogs(logs, opts());
    assert.deepEqual(out[0]!.entries[0], logs[0]!.entries[0], "initialize is kept");
    const [n] = Object.values(argsOf(msg(out[0]!, 1)));
    assert.match(aString(n), /^h_[0-9a-f]{12}$/);
    // A raw line is running text: here each word is one session's alone.
    const raw = out[0]!.entries[2]!.raw!.split(" ");
    assert.equal(raw.length, 3);
    for (const w of raw) assert.match(w, /^h_[0-9a-f]{12}$/);
  });
});
