/**
 * `--write` into a file that already holds a configuration: this server's entry is added
 * to it, and everything else (other servers, other keys, comments, layout) stays byte for
 * byte as it was. jsonc-parser computes the edit, so a file with comments (VS Code's) is
 * merged too; the entry itself is laid out as `stretto init` prints it.
 */
import { applyEdits, findNodeAtLocation, modify, parseTree, printParseErrorCode, type ParseError } from "jsonc-parser";
import { serversKey } from "./hosts.js";
import { configText, layoutEntry, serverEntry } from "./host-config.js";
import type { Setup } from "./setup.js";

export type Merged =
  /** The file was missing or blank: the whole configuration. */
  | { kind: "new"; text: string }
  | { kind: "added" | "replaced"; text: string }
  | { kind: "refused"; reason: string };

/** Stands in for the entry while jsonc-parser places it; no configuration holds it. */
const PLACEHOLDER = "\u0000stretto init: the server's entry\u0000";

export function mergeConfig(path: string, existing: string | undefined, s: Setup, force: boolean): Merged {
  if (existing === undefined || existing.trim() === "") return { kind: "new", text: configText(s, true) };
  const errors: ParseError[] = [];
  const root = parseTree(existing, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first !== undefined || root === undefined) {
    const where = first === undefined ? "" : ` (${printParseErrorCode(first.error)} at ${lineColumn(existing, first.offset)})`;
    return { kind: "refused", reason: `${path} is not JSON that stretto can merge into${where}: fix it, or move it away, and run this again` };
  }
  if (root.type !== "object") return { kind: "refused", reason: `${path} holds no JSON object, so it is no host's configuration` };
  const key = serversKey(s.host === "claude-code" ? "claude-desktop" : s.host);
  const servers = findNodeAtLocation(root, [key]);
  if (servers !== undefined && servers.type !== "object") return { kind: "refused", reason: `${path}: "${key}" is not an object of servers` };
  const present = findNodeAtLocation(root, [key, s.domain]) !== undefined;
  if (present && !force) {
    return { kind: "refused", reason: `${path} already has a server named ${s.domain}: pass --force to replace that entry (the other servers stay as they are)` };
  }
  const eol = existing.includes("\r\n") ? "\r\n" : "\n";
  const unit = indentUnit(existing);
  const edits = modify(existing, [key, s.domain], PLACEHOLDER, {
    formattingOptions: { insertSpaces: !unit.startsWith("\t"), tabSize: unit.startsWith("\t") ? 4 : unit.length, eol },
  });
  const placed = applyEdits(existing, edits);
  const quoted = JSON.stringify(PLACEHOLDER);
  const at = placed.indexOf(quoted);
  const lineStart = placed.lastIndexOf("\n", at) + 1;
  const indent = /^[ \t]*/.exec(placed.slice(lineStart, at))![0];
  const text = placed.slice(0, at) + layoutEntry(serverEntry(s, true), indent, unit, eol) + placed.slice(at + quoted.length);
  return { kind: present ? "replaced" : "added", text };
}

/** The file's own indentation step: its first indented line's, else two spaces. */
function indentUnit(text: string): string {
  const m = /^([ \t]+)["}\]]/m.exec(text);
  return m?.[1] ?? "  ";
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return `line ${line}, column ${offset - before.lastIndexOf("\n")}`;
}
