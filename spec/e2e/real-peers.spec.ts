/**
 * stretto-proxy between a real host and real servers: the official SDK `Client` over
 * `StdioClientTransport` (the way hosts start stdio servers) against the reference servers
 * `server-everything` and `server-filesystem`. A wire tap between the client and what it
 * starts keeps the exact bytes on the host's side, so the proxy is checked three ways:
 * the client works, the host sees what a direct connection shows, and the log holds every
 * line the host sent and got, byte for byte and in order.
 */
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type CallToolResult,
  type CreateMessageRequest,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { cleanTemp, killAll, NODE, PROXY, readLogLines, ROOT, sessionLogs, tempDir } from "../helpers/processes.js";
import { lineText, parseEntry, splitLines, waitFor, WIRE_TAP, type Entry } from "../helpers/wire.js";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FILESYSTEM = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

/** What the host's side of the wire carried in one session. */
interface Tapped {
  sent: Buffer;
  received: Buffer;
  exit: { code: number | null; signal: string | null };
  stderr: string;
  /** The tap's pid: the proxy's parent, so its `host-<ppid>` host session. */
  tapPid: number;
}

/** What the host's handlers were asked. */
interface Asked {
  sampling: CreateMessageRequest["params"][];
  elicitation: unknown[];
}

const SAMPLED_TEXT = "Hello from the host ✓";

/**
 * Runs `body` with an SDK client connected to `command` (through the wire tap), then closes
 * the client the way a host does and returns what went over the wire.
 */
async function session<T>(command: string[], body: (client: Client) => Promise<T>): Promise<{ value: T; asked: Asked; tapped: Tapped }> {
  const tapDir = tempDir("stretto-tap-");
  const env = getDefaultEnvironment();
  delete env["STRETTO_SESSION"];
  const transport = new StdioClientTransport({ command: NODE, args: [WIRE_TAP, tapDir, "--", ...command], env, stderr: "pipe" });
  const stderr: Buffer[] = [];
  transport.stderr!.on("data", (c: Buffer) => stderr.push(c));

  const client = new Client({ name: "stretto-e2e-host", version: "0.0.0" }, { capabilities: { sampling: {}, elicitation: {} } });
  const asked: Asked = { sampling: [], elicitation: [] };
  client.setRequestHandler(CreateMessageRequestSchema, (req) => {
    asked.sampling.push(req.params);
    return { model: "stretto-e2e-model", role: "assistant", content: { type: "text", text: SAMPLED_TEXT }, stopReason: "endTurn" };
  });
  client.setRequestHandler(ElicitRequestSchema, (req) => {
    asked.elicitation.push(req.params);
    return { action: "accept", content: { name: "Ada Lovelace", check: true } };
  });

  let value: T;
  let tapPid: number;
  try {
    await client.connect(transport);
    tapPid = transport.pid!;
    value = await body(client);
  } finally {
    await client.close();
  }
  const exitFile = join(tapDir, "exit.json");
  await waitFor("the tapped process to end", () => existsSync(exitFile));
  return {
    value,
    asked,
    tapped: {
      sent: readFileSync(join(tapDir, "host-sent.bin")),
      received: readFileSync(join(tapDir, "host-received.bin")),
      exit: JSON.parse(readFileSync(exitFile, "utf8")) as Tapped["exit"],
      stderr: Buffer.concat(stderr).toString("utf8"),
      tapPid,
    },
  };
}

const proxied = (recordDir: string, server: string[]) => [NODE, PROXY, "--record", recordDir, "--server-name", "e2e", "--", ...server];

/** The text blocks of a tool result. */
function texts(result: unknown): string[] {
  return ((result as CallToolResult).content ?? []).flatMap((c) => (c.type === "text" ? [c.text] : []));
}

/** The only session log in `dir`, with its entries taken apart. */
function theLog(dir: string): { path: string; header: Record<string, unknown>; entries: Entry[] } {
  const logs = sessionLogs(dir);
  assert.equal(logs.length, 1, `one session log in ${dir}`);
  const { header, entries } = readLogLines(logs[0]!);
  return { path: logs[0]!, header, entries: entries.map(parseEntry) };
}

/**
 * The log against the host's side of the wire: the client entries are exactly the lines
 * the host sent, the server entries exactly the lines the host received, each one a
 * `message` whose text is the line's bytes, and times never go back.
 */
function assertLogIsTheWire(entries: Entry[], tapped: Tapped): void {
  const sent = splitLines(tapped.sent);
  const received = splitLines(tapped.received);
  assert.ok(sent.length > 0 && received.length > 0);
  for (const l of [...sent, ...received]) assert.equal(l[l.length - 1], 0x0a, "every wire line ends with \\n");
  const client = entries.filter((e) => e.from === "client");
  const server = entries.filter((e) => e.from === "server");
  assert.equal(client.length + server.length, entries.length, "only client and server entries");
  assert.deepEqual(
    client.map((e) => e.message),
    sent.map(lineText),
    "client entries = lines the host sent, in order",
  );
  assert.deepEqual(
    server.map((e) => e.message),
    received.map(lineText),
    "server entries = lines the host received, in order",
  );
  for (let i = 1; i < entries.length; i++) assert.ok(entries[i]!.tMs >= entries[i - 1]!.tMs, `t_ms never decreases (entry ${i})`);
}

interface Rpc {
  id?: string | number;
  method?: string;
  result?: unknown;
  error?: unknown;
  params?: Record<string, unknown>;
}
const rpc = (e: Entry) => JSON.parse(e.message!) as Rpc;

/** Every request comes before its answer, whichever side asked; every request is answered. */
function assertRequestsBeforeAnswers(entries: Entry[]): void {
  const asked = new Map<string, number>();
  const answered = new Set<string>();
  entries.forEach((e, i) => {
    const m = rpc(e);
    if (m.id === undefined) return;
    if (m.method !== undefined) {
      asked.set(`${e.from}:${JSON.stringify(m.id)}`, i);
      return;
    }
    const asker = e.from === "server" ? "client" : "server";
    const key = `${asker}:${JSON.stringify(m.id)}`;
    const at = asked.get(key);
    assert.ok(at !== undefined && at < i, `the answer at entry ${i} (${key}) follows its request`);
    answered.add(key);
  });
  for (const key of asked.keys()) assert.ok(answered.has(key), `request ${key} was answered in the log`);
}

/** The lines of a wire direction, sorted: the same multiset means the same messages. */
const sortedLines = (bytes: Buffer) => splitLines(bytes).map(lineText).sort();

/** The answers by id, as text. */
function answersById(bytes: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of splitLines(bytes)) {
    const m = JSON.parse(lineText(l)) as Rpc;
    if (m.id !== undefined && m.method === undefined) out.set(JSON.stringify(m.id), lineText(l));
  }
  return out;
}

describe("e2e: stretto-proxy between the SDK client and real servers", function () {
  this.timeout(30000);
  after(() => {
    killAll();
    cleanTemp();
  });

  describe("server-everything (stdio)", () => {
    const scenario = async (client: Client) => {
      const tools = await client.listTools();
      const echo = await client.callTool({ name: "echo", arguments: { message: "hello through the proxy ✓" } });
      const sum = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
      const progress: Progress[] = [];
      const long = await client.callTool(
        { name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } },
        undefined,
        { onprogress: (p) => progress.push(p) },
      );
      const sampled = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "Say hello", maxTokens: 20 } });
      const elicited = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
      return { tools: tools.tools.map((t) => t.name), echo, sum, progress, long, sampled, elicited };
    };
    type Run = Awaited<ReturnType<typeof session<Awaited<ReturnType<typeof scenario>>>>>;
    let recordDir: string;
    let direct: Run;
    let through: Run;

    before(async () => {
      recordDir = join(tempDir(), "logs");
      direct = await session([NODE, EVERYTHING, "stdio"], scenario);
      through = await session(proxied(recordDir, [NODE, EVERYTHING, "stdio"]), scenario);
    });

    it("lists and calls tools through the proxy", () => {
      const v = through.value;
      for (const name of ["echo", "get-sum", "trigger-long-running-operation", "trigger-sampling-request", "trigger-elicitation-request"]) {
        assert.ok(v.tools.includes(name), `tools/list has ${name}`);
      }
      assert.deepEqual(texts(v.echo), ["Echo: hello through the proxy ✓"]);
      assert.deepEqual(texts(v.sum), ["The sum of 2 and 3 is 5."]);
      assert.deepEqual(texts(v.long), ["Long running operation completed. Duration: 0.3 seconds, Steps: 3."]);
    });

    it("delivers the progress notifications of a long-running call to the client", () => {
      // All three cross the wire (see the log test). The SDK client hands notifications to
      // their handler a microtask late but settles the answer at once, so the last one can
      // miss its handler when it arrives in the same read as the answer (also directly).
      const seen = through.value.progress;
      assert.ok(seen.length >= 2, `got ${JSON.stringify(seen)}`);
      assert.deepEqual(seen, [1, 2, 3].slice(0, seen.length).map((progress) => ({ progress, total: 3 })));
    });

    it("carries the server's sampling and elicitation requests to the client and its answers back", () => {
      assert.equal(through.asked.sampling.length, 1);
      const asked = through.asked.sampling[0]!;
      assert.deepEqual(asked.messages[0]!.content, { type: "text", text: "Resource trigger-sampling-request context: Say hello" });
      assert.equal(asked.maxTokens, 20);
      const sampled = texts(through.value.sampled).join("\n");
      assert.ok(sampled.includes(`"text": "${SAMPLED_TEXT}"`), sampled);
      assert.ok(sampled.includes(`"model": "stretto-e2e-model"`), sampled);

      assert.equal(through.asked.elicitation.length, 1);
      const elicited = texts(through.value.elicited);
      assert.equal(elicited[0], "✅ User provided the requested information!");
      assert.equal(elicited[1], "User inputs:\n- Name: Ada Lovelace\n- Agreed to terms: true");
    });

    it("shows the host the same bytes as a direct connection", () => {
      // Each answer, by id, is byte-identical; so is the whole set of lines each way
      // (only the interleaving of independent messages may differ between two runs).
      const d = answersById(direct.tapped.received);
      const p = answersById(through.tapped.received);
      assert.deepEqual([...p.keys()].sort(), [...d.keys()].sort());
      for (const [id, text] of d) assert.equal(p.get(id), text, `answer ${id}`);
      assert.deepEqual(sortedLines(through.tapped.received), sortedLines(direct.tapped.received));
      assert.deepEqual(sortedLines(through.tapped.sent), sortedLines(direct.tapped.sent));
      const { progress: _p1, ...proxiedValue } = through.value;
      const { progress: _p2, ...directValue } = direct.value;
      assert.deepEqual(proxiedValue, directValue);
    });

    it("records every line both ways, byte for byte, each request before its answer", () => {
      const { header, entries } = theLog(recordDir);
      assert.equal(header["stretto_mcp_log"], 2);
      assert.deepEqual(header["server_command"], [NODE, EVERYTHING, "stdio"]);
      assert.equal(header["server_name"], "e2e");
      assert.equal(header["host_session"], `host-${through.tapped.tapPid}`);
      assert.ok(entries.every((e) => e.message !== undefined), "every line of a well-behaved server is a message");
      assertLogIsTheWire(entries, through.tapped);
      assertRequestsBeforeAnswers(entries);

      // The long call: its three progress notifications sit between the request and its answer.
      const call = entries.findIndex((e) => e.from === "client" && rpc(e).method === "tools/call" && (rpc(e).params?.["name"] === "trigger-long-running-operation"));
      const id = rpc(entries[call]!).id;
      const answer = entries.findIndex((e) => e.from === "server" && rpc(e).id === id && rpc(e).method === undefined);
      const progress = entries.flatMap((e, i) => (e.from === "server" && rpc(e).method === "notifications/progress" ? [i] : []));
      assert.equal(progress.length, 3);
      assert.ok(progress.every((i) => call < i && i < answer));

      // The sampling round trip: tool call < server's request < host's answer < tool result.
      const samplingAt = entries.findIndex((e) => e.from === "server" && rpc(e).method === "sampling/createMessage");
      const samplingId = rpc(entries[samplingAt]!).id;
      const hostAnswer = entries.findIndex((e) => e.from === "client" && rpc(e).id === samplingId && rpc(e).result !== undefined);
      assert.ok(samplingAt > 0 && hostAnswer > samplingAt);
      assert.equal(JSON.stringify((rpc(entries[hostAnswer]!).result as { content: unknown }).content), JSON.stringify({ type: "text", text: SAMPLED_TEXT }));
    });

    it("ends with the server's status, and says only where it records", () => {
      assert.deepEqual(through.tapped.exit, { code: 0, signal: null });
      assert.deepEqual(direct.tapped.exit, { code: 0, signal: null });
      const { path } = theLog(recordDir);
      const ours = through.tapped.stderr.split("\n").filter((l) => l.startsWith("stretto-proxy:"));
      assert.deepEqual(ours, [`stretto-proxy: recording to ${path}`]);
      assert.ok(through.tapped.stderr.startsWith(`stretto-proxy: recording to ${path}\n`), "the first thing on stderr");
    });
  });

  describe("server-filesystem on a temporary folder", () => {
    const CONTENT = "Grüße from the filesystem ✓\nsecond line\n";
    let root: string;
    const scenario = (folder: string) => async (client: Client) => {
      const tools = await client.listTools();
      const listing = await client.callTool({ name: "list_directory", arguments: { path: folder } });
      const read = await client.callTool({ name: "read_text_file", arguments: { path: join(folder, "notes.txt") } });
      return { tools: tools.tools.map((t) => t.name), listing, read };
    };

    before(() => {
      root = tempDir("stretto-fs-");
      mkdirSync(join(root, "files", "drafts"), { recursive: true });
      writeFileSync(join(root, "files", "notes.txt"), CONTENT);
    });

    it("lists and reads a file through the proxy, as a direct connection does, and logs it all", async () => {
      const folder = join(root, "files");
      const recordDir = join(root, "logs");
      const direct = await session([NODE, FILESYSTEM, folder], scenario(folder));
      const through = await session(proxied(recordDir, [NODE, FILESYSTEM, folder]), scenario(folder));

      assert.ok(through.value.tools.includes("list_directory") && through.value.tools.includes("read_text_file"));
      assert.deepEqual(texts(through.value.listing), ["[DIR] drafts\n[FILE] notes.txt"]);
      assert.deepEqual(texts(through.value.read), [CONTENT]);

      assert.deepEqual(through.value, direct.value);
      assert.equal(through.tapped.received.toString("hex"), direct.tapped.received.toString("hex"), "the host got the same bytes");
      assert.deepEqual(through.tapped.exit, { code: 0, signal: null });

      const { entries } = theLog(recordDir);
      assertLogIsTheWire(entries, through.tapped);
      assertRequestsBeforeAnswers(entries);
      assert.equal(entries.filter((e) => e.from === "client").length, 5, "initialize, initialized, tools/list and two calls");
    });
  });
});
