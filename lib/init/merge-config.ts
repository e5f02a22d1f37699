/**
 * `--write` into a file that already holds a configuration: this server's entry is inserted
 * into it, and every other byte (other servers, other keys, comments, layout) stays where it
 * was. jsonc-parser reads the file, comments and trailing commas allowed (VS Code's
 * `mcp.json` may have both); the insertion is made here, as text, because its formatter
 * would re-lay the neighbouring lines.
 */
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { serversKey } from "./hosts.js";
import { configText, layoutEntry, serverEntry, type Entry } from "./host-config.js";
import type { Setup } from "./setup.js";

export type Merged =
  /** The file was missing or blank: the whole configuration. */
  | { kind: "new"; text: string }
  | { kind: "added" | "replaced"; text: string }
  | { kind: "refused"; reason: string };

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
  const layout = new Layout(existing);
  const entry = serverEntry(s, true);
  const present = servers === undefined ? undefined : findNodeAtLocation(servers, [s.domain]);
  if (present !== undefined) {
    if (!force) {
      return { kind: "refused", reason: `${path} already has a server named ${s.domain}: pass --force to replace that entry (the other servers stay as they are)` };
    }
    const indent = layout.indentAt(present.parent!.offset);
    return { kind: "replaced", text: layout.splice(present.offset, present.length, layoutEntry(entry, indent, layout.unit, layout.eol)) };
  }
  const text =
    servers === undefined
      ? layout.addProperty(root, key, (indent) => `{${layout.eol}${indent}${layout.unit}${JSON.stringify(s.domain)}: ${layoutEntry(entry, indent + layout.unit, layout.unit, layout.eol)}${layout.eol}${indent}}`)
      : layout.addProperty(servers, s.domain, (indent) => layoutEntry(entry, indent, layout.unit, layout.eol));
  return { kind: "added", text };
}

/** The file's own layout: its line ending, its indentation step, and text edits that keep to them. */
class Layout {
  readonly eol: string;
  readonly unit: string;

  constructor(readonly text: string) {
    this.eol = text.includes("\r\n") ? "\r\n" : "\n";
    // The first indented line's indentation, else two spaces.
    this.unit = /^([ \t]+)["}\]]/m.exec(text)?.[1] ?? "  ";
  }

  /** The indentation of the line `offset` is on. */
  indentAt(offset: number): string {
    const start = this.text.lastIndexOf("\n", offset - 1) + 1;
    return /^[ \t]*/.exec(this.text.slice(start, offset))![0];
  }

  splice(offset: number, length: number, content: string): string {
    return this.text.slice(0, offset) + content + this.text.slice(offset + length);
  }

  /**
   * `object` with one more property, inserted after its last one on a line of its own (or
   * inline when the object is written on one line), or between the braces of an empty one.
   * `value(indent)` lays the value out for a property indented `indent`.
   */
  addProperty(object: Node, name: string, value: (indent: string) => string): string {
    const props = object.children ?? [];
    const last = props[props.length - 1];
    const quoted = JSON.stringify(name);
    if (last === undefined) {
      const indent = this.indentAt(object.offset);
      // `{}` or `{ }`: the braces' inside becomes the property (a comment inside stays after it).
      const inside = this.text.slice(object.offset + 1, object.offset + object.length - 1);
      const inner = indent + this.unit;
      const content = `${this.eol}${inner}${quoted}: ${value(inner)}${this.eol}${indent}`;
      return inside.trim() === "" ? this.splice(object.offset + 1, inside.length, content) : this.splice(object.offset + 1, 0, content);
    }
    let end = last.offset + last.length;
    // A trailing comma (JSONC) stays, and the new property goes after it.
    const after = /^[ \t]*,/.exec(this.text.slice(end));
    const comma = after === null ? "," : "";
    if (after !== null) end += after[0].length;
    if (!this.text.slice(object.offset, last.offset).includes("\n")) {
      // An object written on one line gets the property on that line, as compact JSON.
      return this.splice(end, 0, `${comma} ${quoted}: ${compact(value(""))}`);
    }
    const indent = this.indentAt(last.offset);
    return this.splice(end, 0, `${comma}${this.eol}${indent}${quoted}: ${value(indent)}`);
  }
}

/** A laid-out value on one line. */
function compact(laidOut: string): string {
  return JSON.stringify(JSON.parse(laidOut) as Entry);
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return `line ${line}, column ${offset - before.lastIndexOf("\n")}`;
}
