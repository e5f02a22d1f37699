/** Finding a program as a shell would: the first folder of PATH that holds it, executable. */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

export function onPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    if (isProgram(candidate)) return candidate;
  }
  return undefined;
}

/** A regular file (through links) that this user may run. */
export function isProgram(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
