/**
 * `--listen ADDR` as `stretto init` takes it: an IP address and a port (`127.0.0.1:8931`,
 * `[::1]:8931`), the URL hosts reach the proxy at, and whether the address is loopback or
 * every address.
 */
import { isIP } from "node:net";
import { parseListenAddress } from "../demo/http/listen-address.js";

export interface ListenAt {
  /** As given. */
  addr: string;
  /** `http://{addr}/mcp`, with an unspecified address replaced by its loopback. */
  url: string;
  /** 0.0.0.0 or [::]: the proxy listens on every address. */
  everyAddress: boolean;
  loopback: boolean;
  port: number;
}

/** The address, or undefined when it is no IP address and port. */
export function listenAt(addr: string): ListenAt | undefined {
  const parsed = parseListenAddress(addr);
  if (parsed === undefined) return undefined;
  const family = isIP(parsed.host);
  // A bracketed address is IPv6, a bare one IPv4, as a socket address is written.
  if (family === 0 || (family === 6) !== addr.startsWith("[")) return undefined;
  const everyAddress = parsed.host === "0.0.0.0" || parsed.host === "::" || /^(0*:)+0*$/.test(parsed.host) || parsed.host === "::0";
  const loopback = family === 4 ? parsed.host.startsWith("127.") : parsed.host === "::1" || /^(0{1,4}:){7}0{0,3}1$/.test(parsed.host);
  const shownHost = everyAddress ? (family === 4 ? "127.0.0.1" : "[::1]") : family === 6 ? `[${parsed.host}]` : parsed.host;
  return { addr, url: `http://${shownHost}:${parsed.port}/mcp`, everyAddress, loopback, port: parsed.port };
}
