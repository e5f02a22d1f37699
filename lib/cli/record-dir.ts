import { statSync } from "node:fs";
import { expandTilde } from "../util/tilde.js";
import { InvalidValue } from "./args.js";

/**
 * `--record DIR`, checked before anything runs: an empty value or a path that exists and is
 * not a folder is the user's mistake, told as a usage error rather than an OS error from
 * creating the log. The value is kept as given (`~` is expanded where it is used).
 */
export function recordDir(raw: string): string {
  if (raw === "") throw new InvalidValue("the folder's name is empty");
  let st;
  try {
    st = statSync(expandTilde(raw));
  } catch {
    return raw; // missing (it will be created) or unreachable (creating it will say why)
  }
  if (st.isFile()) throw new InvalidValue("it is a file, not a folder");
  if (!st.isDirectory()) throw new InvalidValue("it is not a folder");
  return raw;
}
