/**
 * A real server: `@modelcontextprotocol/server-everything streamableHttp`, driven by the
 * official SDK `Client`, once straight over Streamable HTTP and once through
 * `stretto-proxy --upstream` over stdio. What the client sees must be the same.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  LoggingMessageNotificationSchema,
  type LoggingMessageNotification,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { NODE, PROXY, cleanTemp, killAll, readLogLines, sessionLogs, tempDir } from "../helpers/processes.js";
import { startEverything } from "./support.js";

interface Seen {
  tools: string[];
  echo: unknown;
  sum: unknown;
  progress: Progress[];
  longRun: unknown;
  sampling: unknown;
  sampled: number;
  logged: LoggingMessageNotification["params"];
}

/** One client's session with the server, over the given transport. */
async function session(transport: Transport): Promise<Seen> {
  const client = new Client({ name: "stretto-spec", version: "0" }, { capabilities: { sampling: {} } });
  let sampled = 0;
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    sampled++;
    return {
      role: "assistant",
      model: "spec-model",
      content: { type: "text", text: `sampled: ${request.params.messages.length} message(s)` },
    };
  });
  let logged!: (p: LoggingMessageNotification["params"]) => void;
  const firstLog = new Promise<LoggingMessageNotification["params"]>((r) => (logged = r));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logged(n.params));
  await client.connect(transport);
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    const echo = await client.callTool({ name: "echo", arguments: { message: "héllo, stretto" } });
    const sum = await client.callTool({ name: "get-sum", arguments: { a: 19, b: 23 } });
    const progress: Progress[] = [];
    const longRun = await client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    // The server asks the client for a completion on the call's own stream; the answer
    // goes back as a POST of its own.
    const sampling = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "hi", maxTokens: 5 } });
    // The server's own messages: a log message every 5 s (the first at once) on the GET stream.
    await client.setLoggingLevel("debug");
    await client.callTool({ name: "toggle-simulated-logging", arguments: {} });
    const log = await firstLog;
    await client.callTool({ name: "toggle-simulated-logging", arguments: {} });
    return { tools, echo, sum, progress, longRun, sampling, sampled, logged: log };
  } finally {
    await client.close();
  }
}

describe("http upstream: in front of server-everything, driven by the SDK client", function () {
  this.timeout(60_000);
  afterEach(() => {
    killAll();
    cleanTemp();
  });

  it("gives the client what it gets straight from the server", async () => {
    const { url } = await startEverything();
    const direct = await session(new StreamableHTTPClientTransport(new URL(url)));

    const record = tempDir();
    const stdio = new StdioClientTransport({
      command: NODE,
      args: [PROXY, "--record", record, "--upstream", url],
      stderr: "pipe",
    });
    let stderr = "";
    stdio.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const proxied = await session(stdio);

    assert.ok(direct.tools.includes("trigger-sampling-request"), direct.tools.join(", "));
    assert.deepEqual(proxied.tools, direct.tools);
    assert.deepEqual(proxied.echo, direct.echo);
    assert.deepEqual(proxied.echo, { content: [{ type: "text", text: "Echo: héllo, stretto" }] });
    assert.deepEqual(proxied.sum, direct.sum);
    assert.deepEqual(proxied.longRun, direct.longRun);
    // The SDK's stdio client hands notifications to their handlers a microtask late but
    // settles a response at once, so a last progress notification that arrives in the same
    // read as the answer is dropped by the client (it does so with server-everything over
    // plain stdio too). What reached the host is checked in the log below.
    assert.ok(proxied.progress.length >= 2, JSON.stringify(proxied.progress));
    assert.deepEqual(proxied.progress, direct.progress.slice(0, proxied.progress.length));
    assert.deepEqual(proxied.sampling, direct.sampling);
    assert.equal(proxied.sampled, 1);
    assert.equal(proxied.logged.logger ?? null, direct.logged.logger ?? null);
    assert.match(String(proxied.logged.data), /message - SessionId /);

    const logs = sessionLogs(record);
    assert.equal(logs.length, 1);
    assert.equal(stderr, `stretto-proxy: recording to ${logs[0]}\n`);
    const { header, entries } = readLogLines(logs[0]!);
    assert.deepEqual(header["server_command"], [url]);
    // The sampling round trip is in the log: the server's request and the host's answer.
    const text = readFileSync(logs[0]!, "utf8");
    assert.match(text, /"from":"server","message":\{[^\n]*"method":"sampling\/createMessage"/);
    assert.ok(entries.some((e) => e.includes('"from":"client"') && e.includes('"model":"spec-model"')));
    // Every progress notification reached the host, before the answer, as on the direct leg.
    const call = entries.find((e) => e.includes('"from":"client"') && e.includes('"trigger-long-running-operation"'))!;
    const id = (JSON.parse(call) as { message: { id: number } }).message.id;
    const answer = entries.findIndex((e) => e.includes('"from":"server"') && new RegExp(`"id":${id}[,}]`).test(e) && e.includes('"result"'));
    const progress = entries.flatMap((e, i) => (e.includes('"method":"notifications/progress"') ? [i] : []));
    assert.equal(progress.length, 3);
    assert.ok(progress.every((i) => i < answer), `${progress.join(",")} before ${answer}`);
  });
});
