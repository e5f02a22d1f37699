/**
 * Paths a request names (a job's sessions, a registry entry's flow): relative to the data
 * directory, `~/…` in the home directory, or absolute inside the data directory. `..` may not
 * climb out, and the deepest part that exists must resolve, symbolic links followed, inside
 * the directory it starts from, so no link leads a request out of it.
 */
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { osErrorText } from "../util/os-errors.js";

export class PathError extends Error {
  override name = "PathError";
}

/** Whether `path` is `base` or inside it (both absolute, normalized). */
export function inside(path: string, base: string): boolean {
  const r = relative(base, path);
  return r === "" || (!r.startsWith("..") && !isAbsolute(r));
}

/** The deepest existing ancestor of `path` (itself when it exists), resolved. */
function resolvedPrefix(path: string, input: string): { real: string; rest: string } {
  let at = path;
  let rest = "";
  for (;;) {
    try {
      return { real: realpathSync(at), rest };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw new PathError(`${input}: ${osErrorText(e)}`);
      const up = dirname(at);
      if (up === at) throw new PathError(`${input}: a symbolic link leads nowhere`);
      rest = rest === "" ? at.slice(up.length).replace(/^[/\\]/, "") : join(at.slice(up.length).replace(/^[/\\]/, ""), rest);
      at = up;
    }
  }
}

/** Why a path the request names cannot be used, or its absolute form inside `data`. */
export function requestPath(input: string, data: string, home: string | undefined): string {
  if (input.trim() === "") throw new PathError("the path is empty");
  if (input.includes("\0")) throw new PathError("the path holds a NUL character");
  let base = data;
  let path: string;
  if (input === "~" || input.startsWith("~/")) {
    if (home === undefined || home === "") throw new PathError(`${input}: there is no home directory to resolve ~ in`);
    base = home;
    path = resolve(home, input.slice(2));
  } else if (input.startsWith("~")) {
    throw new PathError(`${input}: only ~/ (this user's home directory) is expanded`);
  } else if (isAbsolute(input)) {
    path = resolve(input);
    if (!inside(path, data)) {
      throw new PathError(`${input} is outside the data directory (${data}): name a path inside it, or one that starts with ~/`);
    }
  } else {
    path = resolve(data, input);
  }
  if (!inside(path, base)) throw new PathError(`${input}: .. climbs out of ${base}`);
  let realBase: string;
  try {
    realBase = realpathSync(base);
  } catch (e) {
    throw new PathError(`${input}: ${osErrorText(e)}`);
  }
  const { real } = resolvedPrefix(path, input);
  if (!inside(real, realBase)) throw new PathError(`${input}: a symbolic link leads out of ${base}`);
  return path;
}

/** A path as the API shows it: relative to the data directory when inside it ('/'-separated), else `~/…` or absolute. */
export function shownPath(path: string, data: string, home: string | undefined): string {
  if (inside(path, data)) return relative(data, path).split(sep).join("/") || ".";
  if (home !== undefined && home !== "" && inside(path, home)) return `~/${relative(home, path).split(sep).join("/")}`;
  return path;
}

/** Whether the file at `path` (a scan found it) resolves, links followed, inside the canonical `data`. */
export function resolvesInside(path: string, data: string): boolean {
  try {
    return inside(realpathSync(path), data);
  } catch {
    return false;
  }
}
