/**
 * OpenTelemetry spans as sessions (`--otel FILE`): the spans an instrumented agent exports
 * for recorded sessions give learn, audit, promote, drift and stage what the session logs
 * give them; the reader's own rules (turns without LLM spans, an MCP span inside a tool
 * span, results as text, a pretty-printed document) and its refusals.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { otelEpisodes, readAgentSpans, readOtelEpisodes } from "../../lib/trace/otel/index.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";
import { writeHabitSessions } from "../drift/habit-sessions.js";
import { stretto } from "../drift/in-process.js";
import { folderEpisodes, planFolder } from "../../lib/trace/index.js";
import { writeOtlp } from "./otlp-from-episodes.js";

/** A flow's JSON without what only the source can differ in: when it was learned, the servers' contracts, the conventions. */
function comparable(path: string): unknown {
  const json = JSON.parse(readFileSync(path, "utf8")) as { provenance: Record<string, unknown>; contracts?: unknown };
  delete json.provenance["compiled_unix_ms"];
  delete json.provenance["conventions"];
  delete json.contracts;
  return json;
}

const kv = (key: string, v: string) => ({ key, value: { stringValue: v } });

describe("OpenTelemetry spans as sessions", function () {
  this.timeout(60_000);
  let work: string;
  let sessions: string;
  let otel: string;
  let manifest: string;
  after(cleanTemp);

  before(async () => {
    work = tempDir();
    sessions = join(work, "sessions");
    writeHabitSessions(sessions, 1, 12, "usual");
    otel = join(work, "spans.jsonl");
    assert.equal(await writeOtlp(sessions, otel), 12);
    const m = await stretto("manifest", "--domain", "retail", sessions);
    assert.equal(m.code, 0, m.stderr);
    manifest = join(work, "manifest.json");
    writeFileSync(manifest, m.stdout);
  });

  it("reads the sessions' episodes back from their spans, in the order the sessions started", async () => {
    const fromLogs = [];
    for await (const ep of folderEpisodes(await planFolder(sessions))) fromLogs.push({ ...ep, domain: "retail", reward: 0 });
    assert.deepEqual(await readOtelEpisodes(otel, "retail"), fromLogs);
  });

  it("learn_audit_promote_and_drift_read_opentelemetry_spans: the same flow and reports as from the session logs", async () => {
    const fromLogs = join(work, "logs.flow.json");
    const fromSpans = join(work, "spans.flow.json");
    assert.equal((await stretto("learn", "--sessions", sessions, "--manifest", manifest, "--domain", "retail", "--out", fromLogs, "--habit-only")).code, 0);
    const learned = await stretto("learn", "--otel", otel, "--manifest", manifest, "--domain", "retail", "--out", fromSpans, "--habit-only");
    assert.equal(learned.code, 0, learned.stderr);
    assert.equal(learned.stderr, `stretto: learned the retail flow from 12 sessions (5 tools) and wrote ${fromSpans}\n`);
    assert.deepEqual(comparable(fromSpans), comparable(fromLogs));
    assert.equal((JSON.parse(readFileSync(fromSpans, "utf8")) as { provenance: { conventions?: string } }).provenance.conventions, "opentelemetry-genai");

    const same = async (args: string[], code = 0) => {
      const a = await stretto(...args, "--sessions", sessions);
      const b = await stretto(...args, "--otel", otel);
      assert.equal(a.code, code, a.stderr);
      assert.equal(b.code, code, b.stderr);
      assert.equal(b.stdout, a.stdout, args[0]);
      return b;
    };
    const audit = await same(["audit", "--flow", fromLogs, "--quiet"]);
    assert.ok(audit.stdout.startsWith("# Flow audit"), audit.stdout);
    await same(["drift", "--flow", fromLogs, "--quiet"]);
    await same(["promote", "--flow", fromLogs, "--out", join(work, "promoted.flow.json"), "--quiet"]);

    const logsStage = await stretto("stage", "--flow", join(work, "a.flow.json"), "--sessions", sessions, "--manifest", manifest, "--domain", "retail");
    const spansStage = await stretto("stage", "--flow", join(work, "b.flow.json"), "--otel", otel, "--manifest", manifest, "--domain", "retail");
    assert.equal(spansStage.code, 0, spansStage.stderr);
    assert.equal(spansStage.stdout.replaceAll("b.flow.json", "a.flow.json"), logsStage.stdout);
    assert.deepEqual(comparable(join(work, "b.staged.flow.json")), comparable(join(work, "a.staged.flow.json")));
  });

  it("refuses --otel without a manifest, with --sessions, and a file that is no OTLP", async () => {
    const out = join(work, "x.flow.json");
    const noManifest = await stretto("learn", "--otel", otel, "--domain", "retail", "--out", out);
    assert.equal(noManifest.code, 2);
    assert.ok(noManifest.stderr.includes("--otel needs --manifest FILE: spans do not say which tools read"), noManifest.stderr);
    for (const args of [
      ["learn", "--otel", otel, "--sessions", sessions, "--manifest", manifest, "--domain", "retail", "--out", out],
      ["audit", "--flow", join(work, "logs.flow.json"), "--otel", otel, "--sessions", sessions],
      ["promote", "--flow", join(work, "logs.flow.json"), "--otel", otel, "--sessions", sessions, "--out", out],
      ["stage", "--flow", out, "--otel", otel, "--sessions", sessions, "--manifest", manifest, "--domain", "retail"],
    ]) {
      const r = await stretto(...args);
      assert.equal(r.code, 2, `${args[0]}: ${r.stderr}`);
      assert.ok(r.stderr.includes("the argument '--otel <FILE>' cannot be used with '--sessions <DIR>'"), r.stderr);
    }
    const bad = join(work, "bad.jsonl");
    writeFileSync(bad, `${JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ spanId: "1", startTimeUnixNano: "1" }] }] }] })}\n`);
    const r = await stretto("audit", "--flow", join(work, "logs.flow.json"), "--otel", bad);
    assert.deepEqual([r.code, r.stderr], [1, `stretto: ${bad}, line 1, is no OTLP/JSON traces document: must have required property 'traceId' at /resourceSpans/0/scopeSpans/0/spans/0\n`]);
  });

  it("without LLM spans, calls that overlap are one turn; an MCP span inside a tool span is that call; a result may be plain text", async () => {
    const tool = (id: string, name: string, start: number, end: number, extra: object[] = [], parent?: string) => ({
      traceId: "t1",
      spanId: id,
      ...(parent === undefined ? {} : { parentSpanId: parent }),
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(end),
      attributes: [kv("gen_ai.tool.name", name), ...extra],
    });
    const exec = kv("gen_ai.operation.name", "execute_tool");
    const doc = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                tool("a", "find_user", 10, 20, [exec, kv("gen_ai.tool.call.arguments", '{"email":"x@y"}'), kv("gen_ai.tool.call.result", "user_1")]),
                tool("b", "get_user", 30, 50, [exec, kv("gen_ai.tool.call.id", "c2")]),
                tool("b2", "get_user", 31, 49, [kv("mcp.method.name", "tools/call"), kv("gen_ai.tool.call.arguments", '{"user_id":"user_1"}'), kv("gen_ai.tool.call.result", '{"content":[{"type":"text","text":"nope"}],"isError":true}')], "b"),
                { ...tool("c", "get_order", 40, 60, [exec]), status: { code: 2 } },
              ],
            },
          ],
        },
      ],
    };
    const path = join(work, "pretty.json");
    writeFileSync(path, JSON.stringify(doc, null, 2));
    const [ep] = otelEpisodes(await readAgentSpans(path), "shop");
    assert.deepEqual(ep?.events, [
      { kind: "assistant", text: null, calls: [{ id: "a", name: "find_user", arguments: { email: "x@y" } }], usage: null },
      { kind: "tool_result", call_id: "a", name: "find_user", error: false, content: "user_1" },
      {
        kind: "assistant",
        text: null,
        calls: [
          { id: "c2", name: "get_user", arguments: { user_id: "user_1" } },
          { id: "c", name: "get_order", arguments: {} },
        ],
        usage: null,
      },
      { kind: "tool_result", call_id: "c2", name: "get_user", error: true, content: "nope" },
      { kind: "tool_result", call_id: "c", name: "get_order", error: true, content: "" },
    ]);
    assert.equal(ep?.id, "t1");
  });
});
