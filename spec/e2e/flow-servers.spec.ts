/**
 * A flow learned across servers, served by one proxy per server: it looks up this server's
 * tools by their own names, and a server the flow does not name gets no lookups (the
 * merging of such sessions is spec/trace/roundtrip's). The flow is the published one with its tools renamed `shop::…`, except
 * get_order_details, which it learned on another server (`notes::`): in front of the retail
 * demo named `shop`, the flow looks up get_user_details by its own name and never reaches
 * for the other server's tool.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO, NODE, PROXY, cleanTemp, killAll, start, tempDir } from "../helpers/processes.js";
import { APPENDIX, FLOW, Host, flowFlags, flowLog, ownRequests, requireFixture, type Msg } from "./flow-support.js";

/** Every tool name in a flow's JSON (object keys and string values alike) renamed by `rename`. */
function renameTools(v: unknown, tools: ReadonlySet<string>, rename: (tool: string) => string): unknown {
  if (typeof v === "string") return tools.has(v) ? rename(v) : v;
  if (Array.isArray(v)) return v.map((x) => renameTools(x, tools, rename));
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [tools.has(k) ? rename(k) : k, renameTools(x, tools, rename)]));
  }
  return v;
}

/** The published flow as if learned across `shop` and `notes`: get_order_details is notes'. */
function writeAcrossServers(dir: string): string {
  const json = JSON.parse(readFileSync(FLOW, "utf8")) as { manifest: { tools: Record<string, string> } };
  const tools = new Set(Object.keys(json.manifest.tools));
  const renamed = renameTools(json, tools, (t) => (t === "get_order_details" ? `notes::${t}` : `shop::${t}`));
  const path = join(dir, "across.flow.json");
  writeFileSync(path, JSON.stringify(renamed));
  return path;
}

const texts = (m: Msg) => m.result?.content?.map((c) => c.text) ?? [];

describe("a flow learned across servers", function () {
  let dir: string;
  let flow: string;
  before(function () {
    requireFixture(this);
    dir = tempDir();
    flow = writeAcrossServers(dir);
  });
  after(() => {
    killAll();
    cleanTemp();
  });

  const host = (logs: string, extra: string[]) => new Host(start(NODE, [PROXY, ...flowFlags(logs, extra, flow), "--", NODE, DEMO, "--world", "retail"]));

  it("looks up this server's tools by their own names, and not the other server's", async () => {
    const logs = tempDir();
    const h = host(logs, ["--server-name", "shop"]);
    await h.start();
    const answer = await h.call(3);
    assert.equal(await h.end(), 0);
    const [own, appendix] = texts(answer);
    assert.equal(own, "user_7");
    assert.ok(appendix?.startsWith(APPENDIX), "the lookup is appended");
    assert.match(appendix!, /get_user_details/);
    assert.doesNotMatch(appendix!, /get_order_details|::/, "no other server's tool, and no qualified name, reaches the agent");
    // The server is asked by the tool's own name.
    assert.deepEqual(
      ownRequests(logs).map((e) => e.message.params?.name),
      ["get_user_details"],
    );
    // The flow decides in its own names; after get_user_details the only lookup it offers
    // there is the other server's, so it hands back.
    const decisions = flowLog(logs).lines.filter((l) => "action" in l);
    assert.equal(decisions[0]!["site"], "shop::find_user_id_by_email");
    assert.equal(decisions[0]!["action"], "lookup");
    assert.equal(decisions[0]!["tool"], "shop::get_user_details");
    assert.deepEqual(decisions[0]!["arguments"], { user_id: "user_7" });
    assert.equal(decisions[1]!["site"], "shop::get_user_details");
    assert.ok(Object.keys(decisions[1]!["probs"] as object).includes("notes::get_order_details"), "probs still list every option");
    assert.equal(decisions[1]!["action"], "hand_back");
    assert.equal(h.stderr.includes("across servers"), false, h.stderr);
  });

  it("takes the server's name from --domain, else from the server's own serverInfo", async () => {
    const byDomain = tempDir();
    const a = host(byDomain, ["--domain", "shop"]);
    await a.start();
    assert.equal(texts(await a.call(3)).length, 2, "--domain names the server");
    await a.end();

    // The demo calls itself stretto-mcp-demo, which the flow does not name: no lookups.
    const bySelf = tempDir();
    const b = host(bySelf, []);
    await b.start();
    assert.deepEqual(texts(await b.call(3)), ["user_7"]);
    await b.end();
    assert.deepEqual(ownRequests(bySelf), []);
  });

  it("looks nothing up on a server the flow does not name, and says so once", async () => {
    const logs = tempDir();
    const h = host(logs, ["--server-name", "billing"]);
    await h.start();
    assert.deepEqual(texts(await h.call(3)), ["user_7"]);
    assert.deepEqual(texts(await h.call(4)), ["user_7"]);
    assert.equal(await h.end(), 0);
    assert.deepEqual(ownRequests(logs), []);
    const said = h.stderr.split("\n").filter((l) => l.includes("across servers"));
    assert.deepEqual(said, [
      'stretto-proxy: the flow was learned across servers ({notes, shop}), and this server\'s name, "billing", is none of them, so it looks nothing up here; name the server with --server-name',
    ]);
  });

  it("lets --flow-tools grant a tool by either name", async () => {
    for (const grant of ["get_user_details", "shop::get_user_details"]) {
      const logs = tempDir();
      const h = host(logs, ["--server-name", "shop", "--flow-tools", grant]);
      await h.start();
      assert.equal(texts(await h.call(3)).length, 2, `granted as ${grant}`);
      await h.end();
    }
    const logs = tempDir();
    const h = host(logs, ["--server-name", "shop", "--flow-tools", "get_order_details"]);
    await h.start();
    assert.deepEqual(texts(await h.call(3)), ["user_7"], "not granted");
    await h.end();
  });
});
