/**
 * The tool manifest of a τ²-bench checkout's domain, read from
 * `src/tau2/domains/{domain}/tools.py`: each method decorated `@is_tool(ToolType.X)` is a
 * tool of kind X (`READ` read, `WRITE` write, anything else generic), its docstring's first
 * paragraph the summary and its `Args:` section the arguments' docs. Results files name the
 * tools the agent called but not their kinds, which learning needs.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { LogReadError, type ToolManifest } from "../../trace/index.js";
import type { ToolDoc } from "../../trace/manifest.js";
import { compareCodePoints } from "../../trace/json.js";
import { osErrorText } from "../../util/os-errors.js";

/** A decorated method: the decorator's tool type, the name, and what follows up to the next decorator. */
const TOOL = /@is_tool\(\s*ToolType\.(\w+)[^)]*\)\s*\n\s*def\s+(\w+)\s*\(/g;
const DOCSTRING = /^[^]*?\)\s*(?:->[^:]*)?:\s*\n\s*(?:"""|''')([^]*?)(?:"""|''')/;

export async function tau2Manifest(checkout: string, domain: string): Promise<ToolManifest> {
  const path = join(checkout, "src", "tau2", "domains", domain, "tools.py");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    throw new LogReadError(`reading ${path}: ${osErrorText(e)}`);
  }
  const found = [...text.matchAll(TOOL)];
  if (found.length === 0) throw new LogReadError(`${path} declares no tools (no @is_tool(ToolType.…) methods)`);
  const tools: Record<string, "read" | "write" | "generic"> = {};
  const docs: Record<string, ToolDoc> = {};
  found.sort((a, b) => compareCodePoints(a[2]!, b[2]!));
  for (const m of found) {
    const name = m[2]!;
    const type = m[1]!;
    tools[name] = type === "READ" ? "read" : type === "WRITE" ? "write" : "generic";
    const rest = text.slice(m.index + m[0].length, nextTool(text, m.index + m[0].length));
    const doc = DOCSTRING.exec(rest)?.[1];
    if (doc !== undefined) docs[name] = docOf(doc);
  }
  return { domain, tools, docs };
}

function nextTool(text: string, from: number): number {
  const i = text.indexOf("@is_tool(", from);
  return i < 0 ? text.length : i;
}

/** The summary (the first paragraph) and the `Args:` section's `name: text` entries. */
function docOf(doc: string): ToolDoc {
  const lines = doc.split("\n");
  const summary: string[] = [];
  for (const line of lines) {
    if (line.trim() === "") {
      if (summary.length > 0) break;
      continue;
    }
    summary.push(line.trim());
  }
  const args: Record<string, string> = {};
  const start = lines.findIndex((l) => l.trim() === "Args:");
  if (start >= 0) {
    const indent = (l: string) => l.length - l.trimStart().length;
    let entryIndent = -1;
    let current: string | undefined;
    for (const line of lines.slice(start + 1)) {
      if (line.trim() === "") break;
      const entry = /^(\w+)(?:\s*\([^)]*\))?\s*:\s*(.*)$/.exec(line.trim());
      if (entry !== null && (entryIndent < 0 || indent(line) === entryIndent)) {
        entryIndent = indent(line);
        current = entry[1]!;
        args[current] = entry[2]!;
      } else if (current !== undefined && indent(line) > entryIndent) {
        args[current] = `${args[current]} ${line.trim()}`.trim();
      } else break;
    }
  }
  return { summary: summary.join(" ").replace(/\s+/g, " "), args };
}
