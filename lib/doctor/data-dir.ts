/**
 * The data folder (`~/.stretto`, or `--data`): missing is fine (the proxy makes it), but once
 * it exists the proxy must be able to write there. Writing is tried, not guessed from modes:
 * a file is made exclusively and removed again.
 */
import { closeSync, openSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { osErrorText } from "../util/os-errors.js";
import type { Finding } from "./finding.js";

export function checkDataDir(dir: string, pid = process.pid): Finding {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") {
      return { level: "note", text: `${dir} does not exist yet; \`stretto-proxy --record\` creates it` };
    }
    return { level: "problem", text: `${dir} cannot be read: ${osErrorText(e)}` };
  }
  if (!isDir) return { level: "problem", text: `${dir} is not a directory` };
  const probe = join(dir, `.stretto-doctor-${pid}`);
  try {
    closeSync(openSync(probe, "wx", 0o600));
    unlinkSync(probe);
  } catch (e) {
    return { level: "problem", text: `${dir} is not writable: ${osErrorText(e)}` };
  }
  return { level: "ok", text: `${dir} exists and is writable` };
}
