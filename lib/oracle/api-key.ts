import { readFileSync } from "node:fs";
import { osErrorText } from "../util/os-errors.js";
import { expandTilde } from "../util/tilde.js";

/**
 * The key, or why there is none. A missing key is not a start-up failure (the proxy says so
 * once and starts): each question that needs the model fails with this reason, so a flow
 * or a mock oracle that never asks works without a key, and the reason shows where it bites.
 */
export type ApiKey = { key: string } | { missing: string };

/** Reads a key file; injectable so tests need no files. */
export type ReadText = (path: string) => string;

/**
 * The Jev key: `TYPESAFE_API_KEY` when set and not blank; otherwise the contents of the
 * file `TYPESAFE_API_KEY_FILE` names (`~` expanded, surrounding whitespace trimmed).
 * Without a key, the reason is one of:
 * - `TYPESAFE_API_KEY is not set` (neither variable is set),
 * - `reading TYPESAFE_API_KEY_FILE <path>: <os error>`,
 * - `TYPESAFE_API_KEY_FILE <path> is empty`.
 * Never logs or returns what the key holds in a reason.
 */
export function resolveApiKey(
  env: NodeJS.ProcessEnv = process.env,
  readText: ReadText = (path) => readFileSync(path, "utf8"),
): ApiKey {
  const direct = env["TYPESAFE_API_KEY"]?.trim();
  if (direct) return { key: direct };
  const named = env["TYPESAFE_API_KEY_FILE"];
  if (!named) return { missing: "TYPESAFE_API_KEY is not set" };
  const path = expandTilde(named, env);
  let text: string;
  try {
    text = readText(path);
  } catch (err) {
    return { missing: `reading TYPESAFE_API_KEY_FILE ${path}: ${osErrorText(err)}` };
  }
  const key = text.trim();
  return key ? { key } : { missing: `TYPESAFE_API_KEY_FILE ${path} is empty` };
}
