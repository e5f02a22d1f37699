/**
 * `--write`'s merge, as a property: whatever servers and keys a host's file already holds,
 * however it is laid out (indentation, line endings, objects on one line or many, a trailing
 * comma), adding this server's entry inserts one run of text and leaves every other byte
 * where it was, and the file then reads as what it held plus the entry.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseTree, type Node, type ParseError } from "jsonc-parser";
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

/** How a file is laid out. */
const style = fc.record({
  unit: fc.constantFrom("  ", "    ", "\t"),
  eol: fc.constantFrom("\n", "\r\n"),
  serversOnOneLine: fc.boolean(),
  serverOnOneLine: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  trailingComma: fc.boolean(),
  at: fc.nat(),
});
type Style = typeof style extends fc.Arbitrary<infer T> ? T : never;

/** A value on its own lines, at `indent`. */
function pretty(value: unknown, indent: string, s: Style): string {
  return JSON.stringify(value, null, s.unit).replaceAll("\n", s.eol + indent);
}

function fileText(extra: Record<string, unknown>, key: string, servers: Record<string, unknown> | undefined, s: Style): string {
  const { unit, eol } = s;
  const props: string[] = Object.entries(extra).map(([k, v]) => `${unit}${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  if (servers !== undefined) {
    const entries = Object.entries(servers).map(([k, v], i) => `${unit}${unit}${JSON.stringify(k)}: ${s.serverOnOneLine[i % 4] ? JSON.stringify(v) : pretty(v, unit + unit, s)}`);
    const value = s.serversOnOneLine ? JSON.stringify(servers) : `{${eol}${entries.join(`,${eol}`)}${eol}${unit}}`;
    props.splice(s.at % (props.length + 1), 0, `${unit}${JSON.stringify(key)}: ${value}`);
  }
  return `{${eol}${props.join(`,${eol}`)}${s.trailingComma ? "," : ""}${eol}}${eol}`;
}

/**
 * A JSONC tree as a value whose keys are all own keys, `__proto__` included, as `JSON.parse`
 * makes them (jsonc-parser's `parse` assigns keys, so it drops a `__proto__` key).
 */
function ownValue(node: Node | undefined): unknown {
  if (node === undefined) return undefined;
  if (node.type === "object") return Object.fromEntries((node.children ?? []).map((p) => [p.children![0]!.value as string, ownValue(p.children![1])]));
  if (node.type === "array") return (node.children ?? []).map(ownValue);
  return node.value as unknown;
}

describe("stretto init --write merges into a host's file", () => {
  it("inserts the entry and keeps every other byte, whatever the layout (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...HOSTS),
        fc.option(fc.dictionary(name, server, { maxKeys: 4 }), { nil: undefined }),
        fc.dictionary(name, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        style,
        (host, servers, extra, s) => {
          fc.pre(Object.keys(extra).length > 0 || servers !== undefined);
          const key = serversKey(host === "claude-code" ? "claude-desktop" : host);
          const domain = "stretto-notes";
          const before = fileText(extra, key, servers, s);
          const merged = mergeConfig("mcp.json", before, setup(host, domain), false);
          assert.equal(merged.kind, "added");
          if (merged.kind !== "added") return;
          assertInsertion(before, merged.text);
          const errors: ParseError[] = [];
          const read = ownValue(parseTree(merged.text, errors, { allowTrailingComma: true }));
          assert.deepEqual(errors, []);
          assert.deepEqual(read, JSON.parse(JSON.stringify({ ...extra, [key]: { ...servers, [domain]: serverEntry(setup(host, domain), true) } })));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("replaces an entry of the same name only when forced, keeping the others", () => {
    const before = '{\n  "mcpServers": {\n    "a": {"command": "x"},\n    "notes": {"command": "old"},\n    "z": {"command": "y"}\n  }\n}\n';
    const refused = mergeConfig("mcp.json", before, setup("cursor", "notes"), false);
    assert.deepEqual(refused, { kind: "refused", reason: "mcp.json already has a server named notes: pass --force to replace that entry (the other servers stay as they are)" });
    const forced = mergeConfig("mcp.json", before, setup("cursor", "notes"), true);
    assert.equal(forced.kind, "replaced");
    if (forced.kind !== "replaced") return;
    assert.ok(forced.text.startsWith('{\n  "mcpServers": {\n    "a": {"command": "x"},\n    "notes": {\n      "command": "stretto-proxy",\n'), forced.text);
    assert.ok(forced.text.endsWith('    },\n    "z": {"command": "y"}\n  }\n}\n'), forced.text);
  });
});
