/** Everything `stretto init` knows once its options are checked: what the host's configuration says. */
import type { Host } from "./hosts.js";
import type { ListenAt } from "./listen-url.js";

/** The server behind the proxy: a command it starts, or a Streamable HTTP URL. */
export type Target =
  | { kind: "command"; words: string[] }
  /** Each header's value is read by the proxy from the variable named: the config holds no secret. */
  | { kind: "upstream"; url: string; headers: { name: string; variable: string }[] };

export interface ServedFlow {
  /** As the host gets it: absolute, or starting with `~`. */
  path: string;
  /** `--flow-decider` to pass; undefined for a flow with an arbiter, which is served with it. */
  decider?: "reach" | "habit";
  hasArbiter: boolean;
  shadow: boolean;
}

export interface Setup {
  host: Host;
  domain: string;
  /** How the configuration names stretto-proxy: its name, or its full path. */
  proxy: string;
  record: string;
  flow?: ServedFlow;
  retainDays?: number;
  guards: boolean;
  judge?: { mode: "log" | "enforce"; context: string };
  commit: boolean;
  listen?: ListenAt & { tokenFile?: string };
  target: Target;
}

/** The variable a host sends the listening proxy's token from. */
export const TOKEN_VARIABLE = "STRETTO_PROXY_TOKEN";
