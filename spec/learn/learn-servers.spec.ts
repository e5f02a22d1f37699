/**
 * A flow learned across servers (facts-flows §5.1 inputs, §2.8): the logs one host session
 * left with two servers are merged into one session, every tool named `server::tool`, so
 * the flow learns that the shop's account read is followed by the CRM's order read.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanTemp, tempDir } from "../helpers/processes.js";
import { flowJson, learn, outIn } from "./learn-helpers.js";
import { shopLog, type ShopStep } from "./shop-logs.js";

function serverLog(path: string, session: string, host: string, server: string, startMs: number, steps: ShopStep[]): void {
  const [header, ...rest] = shopLog(session, steps, startMs).split("\n");
  const h = { ...(JSON.parse(header!) as object), host_session: host, server_name: server };
  writeFileSync(path, [JSON.stringify(h), ...rest].join("\n"));
}

describe("stretto learn across servers", function () {
  this.timeout(60_000);
  after(cleanTemp);

  it("merges each host session's logs and learns the tools by their server's name", async () => {
    const dir = tempDir("stretto-learn-servers-");
    for (const n of [1, 2, 3]) {
      const start = 1_790_000_000_000 + n * 100_000;
      const hello: ShopStep = { kind: "user", text: `I am c${n}@example.com` };
      serverLog(join(dir, `shop-${n}.jsonl`), `shop-${n}`, `host-${n}`, "shop", start, [
        hello,
        { kind: "call", tool: "find_account", args: { email: `c${n}@example.com` } },
        { kind: "call", tool: "get_account", args: { account_id: `acct_${n}` } },
      ]);
      // The CRM's proxy started later; its order read comes after the shop's account read.
      serverLog(join(dir, `crm-${n}.jsonl`), `crm-${n}`, `host-${n}`, "crm", start + 4000, [
        hello,
        { kind: "call", tool: "get_order", args: { order_id: `ord_${n}a` } },
      ]);
    }
    const out = outIn(tempDir());
    const r = await learn(dir, out);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `stretto: merged 6 logs into 3 sessions across servers\nstretto: learned the shop flow from 3 sessions (8 tools) and wrote ${out}\n`);
    const json = flowJson(out) as {
      vocab: unknown[];
      sites: { next: unknown[] };
      bindings: { sources: [[string, string], { found: unknown[] }][] };
    };
    assert.ok(json.vocab.some((v) => JSON.stringify(v) === '{"Tool":"crm::get_order"}'));
    assert.ok(json.vocab.some((v) => JSON.stringify(v) === '{"Tool":"shop::get_account"}'));
    assert.deepEqual(json.sites.next, [
      [["shop::find_account", false], { "shop::get_account": 3 }],
      [["shop::get_account", false], { "crm::get_order": 3 }],
    ]);
    const orderSource = json.bindings.sources.find(([k]) => k[0] === "crm::get_order")!;
    assert.deepEqual(orderSource[1].found, [[["shop::get_account", "$.orders[*]"], 3]]);
  });
});
