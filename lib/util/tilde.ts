import { sep } from "node:path";

/**
 * Expands a leading `~` path component, because hosts start servers without a shell.
 * Only `~` and `~/…` change; `~other/x` and `logs/~` do not; without HOME (or USERPROFILE)
 * the path stays as given.
 */
export function expandTilde(path: string, env: NodeJS.ProcessEnv = process.env): string {
  if (path !== "~" && !path.startsWith("~/") && !path.startsWith(`~${sep}`)) return path;
  const home = env["HOME"] || env["USERPROFILE"];
  if (!home) return path;
  return home + path.slice(1);
}
