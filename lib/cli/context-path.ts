import { statSync } from "node:fs";
import { dirname } from "node:path";
import { expandTilde } from "../util/tilde.js";
import { InvalidValue } from "./args.js";

/**
 * `--context FILE`, checked before anything runs. The host may create the file later (the
 * proxy then says so once at start and keeps reading), but a folder that does not exist
 * means a mistyped path that no host append (`>>`) will ever fill: a usage error. A folder
 * holding `{session}` is the host's to make per session, so it is not checked. The value
 * is kept as given (`~` and `{session}` are expanded where it is used).
 */
export function contextPath(raw: string): string {
  if (raw === "") throw new InvalidValue("the file's name is empty");
  const path = expandTilde(raw);
  const dir = dirname(path);
  if (!dir.includes("{session}")) {
    const folder = kindOf(dir);
    if (folder === "missing") throw new InvalidValue(`its folder ${dir} does not exist`);
    if (folder === "other") throw new InvalidValue(`${dir} is not a folder`);
  }
  if (!path.includes("{session}") && kindOf(path) === "folder") throw new InvalidValue("it is a folder, not a file");
  return raw;
}

/** What is at `path`; a stat that fails for another reason (EACCES) is left to reading. */
function kindOf(path: string): "missing" | "folder" | "other" | "unknown" {
  try {
    return statSync(path).isDirectory() ? "folder" : "other";
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "missing" : "unknown";
  }
}
