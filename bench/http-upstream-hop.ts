/**
 * The bare stdio hop of the HTTP upstream benchmark (bench/http-upstream.bench.ts): the least
 * a stdio-to-HTTP bridge written in Node can do. Each line read on stdin is POSTed to the URL
 * with node:http (keep-alive, 64 sockets, as the floor), and each JSON answer is written to
 * stdout as one line. No MCP beyond the session header, no SSE, no error answers: it is a
 * reference for what the process hop itself costs (a pipe each way and one more process to
 * wake), not a bridge anyone should use.
 *
 *   node dist/bench/http-upstream-hop.js <URL>
 */
import { Agent, request } from "node:http";

const url = new URL(process.argv[2] ?? "");
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
let session = "";
let partial = "";

function post(line: string): void {
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "content-length": Buffer.byteLength(line),
  };
  if (session !== "") {
    headers["mcp-session-id"] = session;
    headers["mcp-protocol-version"] = "2025-06-18";
  }
  const req = request(url, { method: "POST", agent, headers }, (res) => {
    const id = res.headers["mcp-session-id"];
    if (typeof id === "string") session = id;
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => {
      if (chunks.length > 0) process.stdout.write(Buffer.concat([...chunks, Buffer.from("\n")]));
    });
  });
  req.on("error", (err) => {
    process.stderr.write(`http-upstream-hop: ${err.message}\n`);
    process.exit(1);
  });
  req.end(line);
}

process.stdin.setEncoding("utf8");
process.stdin.on("data", (text: string) => {
  const lines = (partial + text).split("\n");
  partial = lines.pop()!;
  for (const line of lines) if (line !== "") post(line);
});
process.stdin.on("end", () => agent.destroy());
