import { isIP } from "node:net";

/** Where `--listen` binds: an IP literal and a port (`127.0.0.1:8931`, `[::1]:8931`). */
export interface ListenAddress {
  host: string;
  port: number;
  family: 4 | 6;
}

/**
 * Reads a socket address literal. A host name (`localhost:8931`) is refused: the loopback
 * rule below must judge the address the socket really binds, not a name that may resolve
 * elsewhere.
 */
export function parseListenAddress(raw: string): ListenAddress {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(raw) ?? /^([^:[\]]+):(\d+)$/.exec(raw);
  if (!m) throw new Error("invalid socket address syntax");
  const host = m[1]!;
  const family = isIP(host);
  if (family === 0 || (family === 6) !== raw.startsWith("[")) throw new Error("invalid socket address syntax");
  const port = Number(m[2]);
  if (!Number.isInteger(port) || port > 65535) throw new Error("invalid socket address syntax");
  return { host, port, family: family as 4 | 6 };
}

/** 127.0.0.0/8 or ::1 (and the IPv4-mapped loopback). */
export function isLoopback(host: string): boolean {
  if (isIP(host) === 4) return host.startsWith("127.");
  const lower = host.toLowerCase();
  return lower === "::1" || lower === "0:0:0:0:0:0:0:1" || /^::ffff:127\./.test(lower);
}

/** `host:port` as given on the command line (IPv6 in brackets). */
export function addressText(a: ListenAddress): string {
  return a.family === 6 ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;
}

/** The URL hosts use: an unspecified address is shown as loopback, the port always. */
export function endpointUrl(a: ListenAddress): string {
  if (a.family === 6) return `http://[${a.host === "::" ? "::1" : a.host}]:${a.port}/mcp`;
  return `http://${a.host === "0.0.0.0" ? "127.0.0.1" : a.host}:${a.port}/mcp`;
}

/** The error `--listen` gives for a non-loopback address without a token (exit 125). */
export function needsTokenText(a: ListenAddress): string {
  return (
    `listening on ${addressText(a)} needs a token (--listen-token-file): without one, ` +
    "stretto-proxy listens only on a loopback address, such as 127.0.0.1:8931"
  );
}
