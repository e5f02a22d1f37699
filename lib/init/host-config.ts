/**
 * What each host is given: the server's entry in the host's JSON configuration, that file's
 * text, and Claude Code's `claude mcp add` command line. The JSON is laid out by hand, command
 * before args and args on one line, so a reader sees the proxy's command line at a glance;
 * it parses to the entry.
 */
import { serversKey, type Host } from "./hosts.js";
import { listeningArgs, stdioArgs } from "./proxy-args.js";
import { TOKEN_VARIABLE, type Setup } from "./setup.js";
import { shellLine, shellWord } from "./shell-words.js";

/** A JSON value whose object keys keep the order they were made in. */
export type Entry = string | string[] | { [key: string]: Entry };

/** Whether the host reaches a listening proxy by URL (Claude Desktop only starts commands). */
export function byUrl(s: Setup): boolean {
  return s.listen !== undefined && s.host !== "claude-desktop";
}

/**
 * The server's entry. `written` is the file `--write` makes: Claude Code reads `${VAR}` in a
 * `.mcp.json`, the other hosts `${env:VAR}`.
 */
export function serverEntry(s: Setup, written = false): { [key: string]: Entry } {
  if (!byUrl(s)) {
    return { ...(s.host === "vscode" ? { type: "stdio" } : {}), command: s.proxy, args: stdioArgs(s) };
  }
  const listen = s.listen!;
  const entry: { [key: string]: Entry } = s.host === "cursor" ? { url: listen.url } : { type: "http", url: listen.url };
  if (listen.tokenFile !== undefined) {
    const variable = s.host === "claude-code" && written ? `\${${TOKEN_VARIABLE}}` : `\${env:${TOKEN_VARIABLE}}`;
    entry["headers"] = { Authorization: `Bearer ${variable}` };
  }
  return entry;
}

/** The whole configuration file holding the one server, as `--write` makes it and JSON hosts print it. */
export function configText(s: Setup, written = false): string {
  const key = serversKey(written && s.host === "claude-code" ? "claude-desktop" : s.host);
  const entry = layoutEntry(serverEntry(s, written), "    ", "  ");
  return `{\n  ${JSON.stringify(key)}: {\n    ${JSON.stringify(s.domain)}: ${entry}\n  }\n}\n`;
}

/**
 * An entry as text starting at a property's value: one field a line, indented `indent` plus
 * `unit`, and arrays and objects inside a field on that field's line.
 */
export function layoutEntry(entry: { [key: string]: Entry }, indent: string, unit: string, eol = "\n"): string {
  const fields = Object.entries(entry).map(([k, v]) => `${indent}${unit}${JSON.stringify(k)}: ${inline(v)}`);
  return `{${eol}${fields.join(`,${eol}`)}${eol}${indent}}`;
}

function inline(v: Entry): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => JSON.stringify(x)).join(", ")}]`;
  return `{ ${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(", ")} }`;
}

/** Claude Code's command line, ending in a newline. */
export function claudeCodeLine(s: Setup): string {
  if (!byUrl(s)) return `${shellLine(["claude", "mcp", "add", s.domain, "--", s.proxy, ...stdioArgs(s)])}\n`;
  const listen = s.listen!;
  const line = shellLine(["claude", "mcp", "add", "--transport", "http", s.domain, listen.url]);
  // The token is read when the command runs, so it is never part of the text.
  const header = listen.tokenFile === undefined ? "" : ` --header "Authorization: Bearer $(cat ${shellWord(listen.tokenFile)})"`;
  return `${line}${header}\n`;
}

/** What `stretto init` prints on stdout for the host. */
export function snippet(s: Setup): string {
  return s.host === "claude-code" ? claudeCodeLine(s) : configText(s);
}

/** The command line that starts the listening proxy. */
export function listeningCommand(s: Setup): string {
  return shellLine([s.proxy, ...listeningArgs(s)]);
}

/** Where a host keeps the configuration, in words. */
export function placement(host: Host): string {
  switch (host) {
    case "claude-code":
      return "Run the command in the project where you use Claude Code. With `--scope user` it applies to every project; `--scope project` writes it to .mcp.json, to share.";
    case "claude-desktop":
      return "Merge it into claude_desktop_config.json (on macOS in ~/Library/Application Support/Claude/, on Windows in %APPDATA%\\Claude\\), then restart Claude Desktop.";
    case "cursor":
      return "Merge it into ~/.cursor/mcp.json (every project) or .cursor/mcp.json (this project).";
    case "vscode":
      return "Merge it into .vscode/mcp.json in the workspace, or into your user mcp.json (the command MCP: Open User Configuration).";
  }
}

/** What a listening setup adds to the placement; `written` when the file holds the token's variable. */
export function listenNote(s: Setup, written: boolean): string | undefined {
  const l = s.listen;
  if (l === undefined) return undefined;
  if (s.host === "claude-desktop") {
    return `Claude Desktop starts its servers as commands, so it runs a proxy of its own, over stdio, rather than connecting to the one at ${l.url}.`;
  }
  const notes: string[] = [];
  if (l.tokenFile !== undefined && (written || s.host !== "claude-code")) {
    notes.push(`The host sends the token from ${TOKEN_VARIABLE}: set it, in the environment the host starts in, to the token in ${l.tokenFile}.`);
  }
  if (l.everyAddress) notes.push("The proxy listens on every address: a host on another machine puts this one's name in the URL.");
  return notes.length === 0 ? undefined : notes.join(" ");
}
