/**
 * `--write`'s merge, as a property: whatever servers and keys a host's file already holds,
 * and however it is indented, adding this server's entry inserts one run of text and leaves
 * every other byte where it was, and the file then parses to what it held plus the entry.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { HOSTS, mergeConfig, serverEntry, serversKey, type Setup } from "../../lib/init/index.js";
import { assertInsertion } from "./init-helpers.js";

const setup = (host: Setup["host"], domain: string): Setup => ({
  host,
  domain,
  proxy: "stretto-proxy",
  record: `~/.stretto/logs/${domain}`,
  guards: false,
  commit: false,
  target: { kind: "command", words: ["npx", "-y", "server", "it's \"here\""] },
});

const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
const server = fc.record({ command: fc.string(), args: fc.array(fc.string(), { maxLength: 3 }), env: fc.dictionary(name, fc.string(), { maxKeys: 2 }) });

describe("stretto init --write merges into a host's file", () => {
  it("inserts the entry and keeps every other byte (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...HOSTS),
        fc.dictionary(name, server, { minKeys: 1, maxKeys: 4 }),
        fc.dictionary(name, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        fc.constantFrom(2, 4, "\t"),
        (host, servers, extra, indent) => {
          const key = serversKey(host === "claude-code" ? "claude-desktop" : host);
          const domain = "stretto-notes";
          const before = `${JSON.stringify({ ...extra, [key]: servers }, null, indent)}\n`;
          const merged = mergeConfig("mcp.json", before, setup(host, domain), false);
          assert.equal(merged.kind, "added");
          if (merged.kind !== "added") return;
          assertInsertion(before, merged.text);
          const parsed = JSON.parse(merged.text) as Record<string, Record<string, unknown>>;
          assert.deepEqual(parsed, JSON.parse(JSON.stringify({ ...extra, [key]: { ...servers, [domain]: serverEntry(setup(host, domain), true) } })));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("replaces an entry of the same name only when forced, keeping the others", () => {
    const before = '{\n  "mcpServers": {\n    "a": {"command": "x"},\n    "notes": {"command": "old"},\n    "z": {"command": "y"}\n  }\n}\n';
    const refused = mergeConfig("mcp.json", before, setup("cursor", "notes"), false);
    assert.deepEqual(refused, { kind: "refused", reason: "mcp.json already has a server named notes: pass --force to replace that entry (the other servers stay as they are)" });
    const forced = mergeConfig("mcp.json", before, setup("cursor", "notes"), true);
    assert.equal(forced.kind, "replaced");
    if (forced.kind !== "replaced") return;
    assert.ok(forced.text.startsWith('{\n  "mcpServers": {\n    "a": {"command": "x"},\n    "notes": {\n'), forced.text);
    assert.ok(forced.text.endsWith('    },\n    "z": {"command": "y"}\n  }\n}\n'), forced.text);
  });
});
