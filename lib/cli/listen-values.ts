import { parseListenAddress, type ListenAddress } from "../transport/host-http/address.js";
import { InvalidValue } from "./args.js";

/** `--listen ADDR`: an IP literal and a port, as a socket address parser takes them. */
export function listenAddress(raw: string): ListenAddress {
  try {
    return parseListenAddress(raw);
  } catch (err) {
    throw new InvalidValue((err as Error).message);
  }
}

/** `--listen-idle MINUTES`: more than zero (a fraction is taken, so a test can wait less than a minute). */
export function listenIdle(raw: string): number {
  const n = Number(raw);
  if (!/^\+?(\d+\.?\d*|\.\d+)$/.test(raw) || !(n > 0)) throw new InvalidValue("must be a number of minutes above 0");
  return n;
}
