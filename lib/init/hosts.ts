/** The MCP hosts `stretto init` writes a configuration for. */
export const HOSTS = ["claude-code", "claude-desktop", "cursor", "vscode"] as const;
export type Host = (typeof HOSTS)[number];

export function isHost(text: string): text is Host {
  return (HOSTS as readonly string[]).includes(text);
}

/** The key a host's JSON configuration keeps its servers under. */
export function serversKey(host: Host): "servers" | "mcpServers" {
  return host === "vscode" ? "servers" : "mcpServers";
}
