/**
 * How the configuration names stretto-proxy so the host finds it. Hosts start servers with
 * their own PATH, which for Claude Desktop (started from the desktop, not a shell) is the
 * system's alone: it gets the full path. The others get the name when it is on PATH.
 */
import { dirname, join } from "node:path";
import type { Host } from "./hosts.js";
import { isProgram, onPath } from "./on-path.js";

export const PROXY = "stretto-proxy";

/** The name or path, and what to say about it on stderr, if anything. */
export function proxyName(host: Host, path: string | undefined, exe: string | undefined): { proxy: string; notice?: string } {
  const found = onPath(PROXY, path);
  if (found !== undefined) return { proxy: host === "claude-desktop" ? found : PROXY };
  const beside = exe === undefined ? undefined : join(dirname(exe), PROXY);
  if (beside !== undefined && isProgram(beside)) {
    return { proxy: beside, notice: `${PROXY} is not on PATH, so the configuration names it by its full path` };
  }
  return { proxy: PROXY, notice: `${PROXY} is not on PATH; install it before the host starts the server (README.md, "Install")` };
}
