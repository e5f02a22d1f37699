/** Where `--http ADDR` binds: `HOST:PORT`, `[IPV6]:PORT`, or a host name such as `localhost:0`. */
export interface ListenAddress {
  host: string;
  port: number;
}

/** Parses ADDR the way Rust's `ToSocketAddrs` splits it; undefined when it cannot be one. */
export function parseListenAddress(addr: string): ListenAddress | undefined {
  const bracketed = /^\[([^\]]*)\]:([^:]*)$/.exec(addr);
  let host: string;
  let port: string;
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2]!;
  } else {
    const colon = addr.lastIndexOf(":");
    if (colon === -1) return undefined;
    host = addr.slice(0, colon);
    port = addr.slice(colon + 1);
  }
  if (host === "" || !/^\+?[0-9]+$/.test(port)) return undefined;
  const n = Number(port);
  return n <= 65535 ? { host, port: n } : undefined;
}

/** `http://127.0.0.1:PORT/mcp`, or `http://[::1]:PORT/mcp` for IPv6. */
export function mcpUrl(address: string, port: number): string {
  const host = address.includes(":") ? `[${address}]` : address;
  return `http://${host}:${port}/mcp`;
}
