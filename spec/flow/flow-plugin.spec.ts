/**
 * The flow plugin on a fake session: the published flow,
 * the session log kept as the proxy keeps it (so the episode is real), and a server that
 * answers the plugin's own requests as each test says.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EMPTY, Subject } from "rxjs";
import { frame, type Frame } from "../../lib/bus/frame.js";
import type { OwnAnswer, Plugin, PluginContext } from "../../lib/bus/runtime/api.js";
import { APPENDIX, appendixText, resultText, withAppendix } from "../../lib/plugins/flow/appendix.js";
import { FlowLogFile, type FlowLogSink } from "../../lib/plugins/flow/flow-log.js";
import { flowPlugin, type FlowSettings } from "../../lib/plugins/flow/flow-plugin.js";
import { deciderMismatch, servingLine } from "../../lib/cli/flow-options.js";
import { float, unsigned64 } from "../../lib/cli/flow-values.js";
import { loadFlow } from "../../lib/flow/ir/load-flow.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";
import { SessionLog } from "../../lib/bus/runtime/session-log.js";
import { logHeader } from "../../lib/record/log-header.js";
import { FIXTURE_PATH, requireFixture } from "./flow-fixture.js";

type Msg = { id?: unknown; result?: { content?: Array<{ type: string; text: string }>; isError?: boolean } };
/** How the fake server answers a lookup: a result, a JSON-RPC error, or never (a promise the test settles). */
type Answer = { result: unknown } | { error: { message?: string } } | Promise<OwnAnswer>;

const TOOLS = [
  { name: "find_user_id_by_email", annotations: { readOnlyHint: true }, inputSchema: { type: "object", properties: { email: { type: "string" } }, required: ["email"] } },
  { name: "get_user_details", annotations: { readOnlyHint: true }, inputSchema: { type: "object", properties: { user_id: { type: "string" } }, required: ["user_id"] } },
  { name: "get_order_details", annotations: { readOnlyHint: true }, inputSchema: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] } },
];
const USER = '{"orders":["#W7a"],"user_id":"user_7"}';
const text = (t: string) => ({ content: [{ type: "text", text: t }], isError: false });

class Harness {
  readonly log = new SessionLog(logHeader({ session: "s", startedUnixMs: 0, serverCommand: ["demo"] }), undefined);
  readonly asked: Array<{ id: string; name: string; arguments: unknown }> = [];
  readonly said: string[] = [];
  readonly out: Frame[] = [];
  readonly lines: string[] = [];
  private readonly client$ = new Subject<Frame>();
  private readonly server$ = new Subject<Frame>();
  private t = 0;
  private n = 0;
  serverOpen = true;

  constructor(
    private readonly answer: (name: string, args: unknown) => Answer,
    settings: Partial<FlowSettings> & { flow: Flow },
  ) {
    const session = {
      clock: { now: () => this.t, startedUnixMs: 0 },
      domain: "retail",
      session: "s",
      hostSession: undefined,
      frames$: EMPTY,
      toClient: (b: Buffer) => this.out.push(frame("proxy", this.t, b)),
      request: async (_m: string, p: { name: string; arguments: unknown }): Promise<OwnAnswer> => {
        if (!this.serverOpen) return { kind: "no-answer", why: "server-gone" };
        const id = `stretto-${++this.n}`;
        this.asked.push({ id, ...p });
        this.add("proxy", { jsonrpc: "2.0", id, method: "tools/call", params: p });
        const a = this.answer(p.name, p.arguments);
        if (a instanceof Promise) return a;
        const response = { jsonrpc: "2.0", id, ...a };
        const f = this.add("server", response);
        return { kind: "answer", response, frame: f };
      },
      nextOwnId: () => `stretto-${this.n + 1}`,
      log: (from: "proxy" | "context", b: Buffer) => this.log.add(frame(from, this.t, b)),
      episode: () => this.log.episode(),
      say: (m: string) => this.said.push(m),
      serverOpen: () => this.serverOpen,
      provide() {},
      service: () => undefined,
    } as unknown as PluginContext;
    const sink: FlowLogSink = { write: (l) => this.lines.push(l) };
    const p = flowPlugin({ decider: "habit", threshold: 0.1, log: () => sink, ...settings })(session) as Plugin;
    this.client$.pipe(p.client!).subscribe();
    this.server$.pipe(p.server!).subscribe((f) => this.out.push(f));
  }

  add(from: "client" | "server" | "proxy" | "context", message: unknown): Frame {
    this.t += 1;
    const f = frame(from, this.t, Buffer.from(`${JSON.stringify(message)}\n`));
    this.log.add(f);
    return f;
  }
  send(message: unknown): void {
    this.client$.next(this.add("client", message));
  }
  reply(message: unknown): Frame {
    const f = this.add("server", message);
    this.server$.next(f);
    return f;
  }
  endServer(): void {
    this.server$.complete();
  }
  /** Lists the tools, then the agent's find_user_id_by_email (id 3), answered `user_7`. */
  listed(tools: unknown[] = TOOLS): void {
    this.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    this.reply({ jsonrpc: "2.0", id: 2, result: { tools } });
  }
  call(id: number | string, name = "find_user_id_by_email", args: unknown = { email: "c7@example.com" }): void {
    this.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
  }
  /** The usual opening: tools listed, the agent's find_user_id_by_email (id 3) answered `user_7`, settled. Returns the answer's frame. */
  async foundUser7(): Promise<Frame> {
    this.listed();
    this.call(3);
    const f = this.reply({ jsonrpc: "2.0", id: 3, result: text("user_7") });
    await this.settle();
    return f;
  }
  async settle(): Promise<void> {
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
  }
  outMsgs(): Msg[] {
    return this.out.map((f) => JSON.parse(f.bytes.toString()) as Msg);
  }
  flowLines(): Array<Record<string, unknown>> {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}

const lookups = (name: string): Answer => (name === "get_user_details" ? { result: text(USER) } : { result: { content: [{ type: "text", text: "Order not found" }], isError: true } });

describe("the flow plugin (on a fake session)", function () {
  let flow: Flow;
  before(function () {
    requireFixture(this);
    flow = loadFlow(FIXTURE_PATH);
  });

  it("looks up what the agent will need next and appends it to the agent's result", async () => {
    const h = new Harness(lookups, { flow });
    const original = await h.foundUser7();
    assert.deepEqual(h.asked[0], { id: "stretto-1", name: "get_user_details", arguments: { user_id: "user_7" } });
    const answered = h.out.at(-1)!;
    assert.notEqual(answered, original);
    assert.equal(answered.from, "proxy");
    const items = (JSON.parse(answered.bytes.toString()) as Msg).result!.content!;
    assert.equal(items.length, 2);
    assert.equal(items[0]!.text, "user_7");
    assert.ok(items[1]!.text.startsWith(APPENDIX));
    assert.ok(items[1]!.text.includes('\n\nget_user_details {"user_id":"user_7"}:\n' + USER));
    assert.ok(items[1]!.text.includes('\n\nget_order_details {"order_id":"#W7a"} (error):\nOrder not found'));
    const lines = h.flowLines();
    assert.ok(lines.length >= 2);
    const decisions = lines.filter((l) => "action" in l);
    assert.deepEqual(decisions.map((l) => l["address"]), decisions.map((_, i) => `decide#${i}`));
    assert.equal(decisions[0]!["tool"], "get_user_details");
    assert.equal(decisions[0]!["after"], 3);
    const run = lines.at(-1)!;
    assert.equal(run["after"], 3);
    assert.equal((run["run"] as { call: string }).call, "find_user_id_by_email");
    assert.match(h.lines.at(-1)!, /^\{"after":3,"run":\{"call":"find_user_id_by_email","failed":false,"max_lookups":8,"sites":\[\["decide#0",\d+,0\],\["outcome#0",true,/);
    // The server's own key order is kept (the proxy never reorders a server's answer); only
    // the appendix item is added.
    assert.match(answered.bytes.toString(), /^\{"jsonrpc":"2.0","id":3,"result":\{"content":\[\{"type":"text","text":"user_7"\},\{"type":"text","text":"--- Also looked up/);
  });

  it("stops at --flow-per-session and --flow-per-call", async () => {
    for (const settings of [{ perSession: 1 }, { perCall: 1 }]) {
      const h = new Harness(lookups, { flow, ...settings });
      await h.foundUser7();
      assert.equal(h.asked.length, 1, JSON.stringify(settings));
      assert.equal(h.outMsgs().at(-1)!.result!.content!.length, 2);
    }
    // With the session's lookups used up, the next call's answer goes on as it is.
    const h = new Harness(lookups, { flow, perSession: 1 });
    await h.foundUser7();
    h.call(4);
    const second = h.reply({ jsonrpc: "2.0", id: 4, result: text("user_7") });
    await h.settle();
    assert.equal(h.out.at(-1), second);
    assert.equal(h.asked.length, 1);
  });

  it("in shadow decides and logs but looks nothing up, and the server's bytes go on unchanged", async () => {
    const h = new Harness(lookups, { flow, shadow: true });
    const original = await h.foundUser7();
    assert.equal(h.asked.length, 0);
    assert.equal(h.out.at(-1), original);
    const lines = h.flowLines();
    assert.equal(lines.length, 2, "one decision line and one run line");
    assert.equal(lines[0]!["shadow"], true);
    assert.equal(lines[0]!["action"], "lookup");
    assert.equal(lines[0]!["tool"], "get_user_details");
    assert.deepEqual(lines[0]!["arguments"], { user_id: "user_7" });
  });

  it("leaves to the agent what --flow-tools does not grant, or the server no longer lists or marks as a write", async () => {
    const cases: Array<[Partial<FlowSettings>, unknown[], string]> = [
      [{ flowTools: ["get_order_details"] }, TOOLS, "--flow-tools does not grant it"],
      [{}, TOOLS.filter((t) => t.name !== "get_user_details"), "the server no longer lists it"],
      [{}, TOOLS.map((t) => (t.name === "get_user_details" ? { ...t, annotations: { readOnlyHint: false } } : t)), "the server marks it as a write"],
    ];
    for (const [settings, tools, why] of cases) {
      const h = new Harness(lookups, { flow, ...settings });
      h.listed(tools);
      h.call(3);
      const original = h.reply({ jsonrpc: "2.0", id: 3, result: text("user_7") });
      await h.settle();
      assert.equal(h.asked.length, 0, why);
      assert.equal(h.out.at(-1), original);
      assert.equal(h.flowLines()[0]!["withheld"], why);
      assert.deepEqual(h.said, [`the flow leaves get_user_details to the agent: ${why}`]);
    }
  });

  it("forwards a JSON-RPC error, a call it did not see, non-JSON, batches and notifications unchanged", async () => {
    const h = new Harness(lookups, { flow });
    h.listed();
    h.call(3);
    const frames = [
      h.reply({ jsonrpc: "2.0", id: 3, error: { code: -32000, message: "boom" } }),
      h.reply({ jsonrpc: "2.0", id: 9, result: text("user_7") }),
      h.reply({ jsonrpc: "2.0", id: "3", result: text("user_7") }),
      h.reply({ jsonrpc: "2.0", method: "notifications/message", params: {} }),
      h.reply([{ jsonrpc: "2.0", id: 3, result: text("user_7") }]),
    ];
    const junk = frame("server", 99, Buffer.from("not json\n"));
    h.log.add(junk);
    (h as unknown as { server$: Subject<Frame> }).server$.next(junk);
    await h.settle();
    assert.equal(h.asked.length, 0);
    assert.deepEqual(h.out.slice(1), [...frames, junk]);
  });

  it("with no flow log, lets an answer go on at once where the flow offers nothing, and holds one where it may look up", async () => {
    const h = new Harness(lookups, { flow, log: () => undefined });
    h.listed();
    h.call(3, "search_catalog", { q: "lamp" });
    const plain = h.reply({ jsonrpc: "2.0", id: 3, result: text("[]") });
    // Out in the same turn as it came in, the very frame.
    assert.equal(h.out.at(-1), plain);
    h.call(4);
    const found = h.reply({ jsonrpc: "2.0", id: 4, result: text("user_7") });
    assert.notEqual(h.out.at(-1), found, "held while the flow looks things up");
    await h.settle();
    assert.equal(h.outMsgs().at(-1)!.result!.content!.length, 2, "the lookup appended");
    assert.deepEqual(h.asked.map((a) => a.name)[0], "get_user_details");
  });

  it("starts a flow only after a call: not when the agent said something since", async () => {
    const h = new Harness(lookups, { flow });
    h.listed();
    h.call(3);
    const f = h.add("server", { jsonrpc: "2.0", id: 3, result: text("user_7") });
    h.add("context", { role: "assistant", content: "Found you." });
    (h as unknown as { server$: Subject<Frame> }).server$.next(f);
    await h.settle();
    assert.equal(h.asked.length, 0);
    assert.equal(h.out.at(-1), f);
    assert.deepEqual(h.lines, []);
  });

  it("runs one flow at a time: an answer that arrives meanwhile goes on unchanged", async () => {
    let release: (a: OwnAnswer) => void = () => {};
    const h = new Harness(() => new Promise<OwnAnswer>((r) => (release = r)), { flow, perCall: 1 });
    h.listed();
    h.call(3);
    h.call(4);
    h.reply({ jsonrpc: "2.0", id: 3, result: text("user_7") });
    await h.settle();
    assert.equal(h.asked.length, 1);
    const second = h.reply({ jsonrpc: "2.0", id: 4, result: text("user_7") });
    await h.settle();
    assert.equal(h.out.at(-1), second, "id 4 goes on while the flow waits");
    assert.equal(h.flowLines().filter((l) => l["after"] === 4).length, 0, "no flow runs after id 4");
    const response = { jsonrpc: "2.0", id: "stretto-1", result: text(USER) };
    release({ kind: "answer", response, frame: h.add("server", response) });
    await h.settle();
    assert.equal(h.outMsgs().at(-1)!.id, 3);
    assert.equal(h.outMsgs().at(-1)!.result!.content!.length, 2);
  });

  it("finishes without work the server never answers", async () => {
    // Patience runs out.
    const h = new Harness(() => Promise.resolve({ kind: "no-answer", why: "patience" } as OwnAnswer), { flow });
    const original = await h.foundUser7();
    assert.equal(h.out.at(-1), original);
    assert.deepEqual(h.said, ["no answer to get_user_details within 60 s; going on without it"]);
    assert.equal(h.asked.length, 1, "no further lookup after one went unanswered");

    // The server ends while the flow waits.
    const g = new Harness(() => new Promise<OwnAnswer>(() => {}), { flow });
    const held = await g.foundUser7();
    assert.equal(g.out.includes(held), false);
    g.endServer();
    await g.settle();
    assert.equal(g.out.at(-1), held);

    // The server's input is closed: no lookup can be made.
    const c = new Harness(lookups, { flow });
    c.serverOpen = false;
    const plain = await c.foundUser7();
    assert.equal(c.asked.length, 0);
    assert.equal(c.out.at(-1), plain);
  });

  it("runs after a result with isError at the site `tool (error)`, and logs the policy with --flow-explore 0", async () => {
    const h = new Harness(lookups, { flow, explore: { epsilon: 0, seed: 0 } });
    h.listed();
    h.call(3);
    h.reply({ jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "User not found" }], isError: true } });
    await h.settle();
    const lines = h.flowLines();
    assert.equal(lines[0]!["site"], "find_user_id_by_email (error)");
    assert.equal((lines.at(-1)!["run"] as { failed: boolean }).failed, true);

    const e = new Harness(lookups, { flow, explore: { epsilon: 0, seed: 0 } });
    await e.foundUser7();
    const policy = e.flowLines()[0]!["policy"] as { epsilon: number; explored: boolean; greedy: string; propensity: number; task_id: string };
    assert.deepEqual([policy.epsilon, policy.explored, policy.greedy, policy.propensity, policy.task_id], [0, false, "get_user_details", 1, "s"]);
    assert.equal(e.asked[0]!.name, "get_user_details");
  });

  it("hands back when the flow fails (reach on a flow without reach), logging no decision", async () => {
    const h = new Harness(lookups, { flow, decider: "reach" });
    const original = await h.foundUser7();
    assert.equal(h.asked.length, 0);
    assert.equal(h.out.at(-1), original);
    assert.equal(h.said.length, 1);
    assert.match(h.said[0]!, /^the flow failed, handing back: /);
    assert.equal(h.lines.length, 1, "only the run line");
  });

  it("never runs a flow whose program does not build", async () => {
    const program = { fugue_program: 1, body: [{ stmt: "sample", var: "x", addr: { name: "x" }, dist: { name: "Nowhere", args: [] } }], ret: { op: "var", name: "x" } };
    const broken = { ...flow, program } as unknown as Flow;
    const h = new Harness(lookups, { flow: broken });
    assert.equal(h.said.length, 1);
    assert.equal(h.said[0], "the flow's program: unknown distribution `Nowhere`; the flow will not run");
    const original = await h.foundUser7();
    assert.equal(h.asked.length, 0);
    assert.equal(h.out.at(-1), original);
  });
});

describe("the flow's appendix, results and log", () => {
  it("appends the lookups in the pilot's format", () => {
    assert.equal(
      appendixText([
        { tool: "get_user_details", arguments: { user_id: "user_7" }, text: '{"orders":["#W7a"]}', error: false },
        { tool: "get_order_details", arguments: { order_id: "#W9" }, text: "Order not found", error: true },
      ]),
      `${APPENDIX}\n\nget_user_details {"user_id":"user_7"}:\n{"orders":["#W7a"]}\n\nget_order_details {"order_id":"#W9"} (error):\nOrder not found`,
    );
    assert.equal(APPENDIX, "--- Also looked up automatically (current results; no need to repeat these calls) ---");
    const looked = [{ tool: "t", arguments: {}, text: "x", error: false }];
    assert.equal(withAppendix({ jsonrpc: "2.0", id: 1, result: {} }, looked)!.toString(), `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${APPENDIX}\\n\\nt {}:\\nx"}]}}\n`);
    const msg = { id: 1, result: { content: [{ type: "text", text: "a" }] } };
    withAppendix(msg, looked);
    assert.equal(msg.result.content.length, 1, "the message itself is not changed");
  });

  it("reads a response's text: an error's message, the text items joined, isError", () => {
    assert.deepEqual(resultText({ id: 1, error: { code: 1, message: "bad" } }), { text: "bad", error: true });
    assert.deepEqual(resultText({ id: 1, error: { code: 1 } }), { text: "error", error: true });
    assert.deepEqual(resultText({ id: 1, error: null, result: { content: [{ type: "text", text: "a" }, { type: "image" }, { type: "x", text: "b" }], isError: true } }), { text: "a\nb", error: true });
    assert.deepEqual(resultText({ id: 1, result: {} }), { text: "", error: false });
  });

  it("skips a flow log that cannot be opened", () => {
    const dir = mkdtempSync(join(tmpdir(), "flow-log-"));
    try {
      const said: string[] = [];
      assert.equal(FlowLogFile.open(join(dir, "missing", "x.flow.jsonl"), (m) => said.push(m)), undefined);
      assert.equal(said.length, 1);
      assert.match(said[0]!, /^flow log .*missing\/x\.flow\.jsonl: /);
      const path = join(dir, "f.flow.jsonl");
      const log = FlowLogFile.open(path, (m) => said.push(m))!;
      log.write("{}");
      log.close();
      FlowLogFile.open(path, () => {})!.write("[]");
      assert.equal(readFileSync(path, "utf8"), "{}\n[]\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("checks the decider against the flow and says what it serves", function () {
    requireFixture(this);
    const flow = loadFlow(FIXTURE_PATH);
    assert.equal(deciderMismatch(flow, "f.json", "habit"), undefined);
    assert.equal(deciderMismatch(flow, "f.json", "reach"), "f.json was learned before flows counted what comes before the next write: learn it again for --flow-decider reach");
    assert.equal(deciderMismatch(flow, "f.json", "arbiter"), "f.json was learned without a System-One model: serve it with --flow-decider habit");
    assert.equal(servingLine(flow, "f.json", "habit", true), "serving the retail flow from f.json, deciding with habit, in shadow");
    assert.equal(float("0.3"), 0.3);
    assert.throws(() => float("x"));
    assert.equal(unsigned64("18446744073709551615"), 18446744073709551615n);
    assert.throws(() => unsigned64("18446744073709551616"));
  });
});
