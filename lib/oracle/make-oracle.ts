import { readFileSync } from "node:fs";
import type { Got } from "got";
import { osErrorText } from "../util/os-errors.js";
import { expandTilde } from "../util/tilde.js";
import { resolveApiKey, type ReadText } from "./api-key.js";
import { AnswerCache } from "./cache.js";
import { JevClient, jevBaseUrl, type Sleep } from "./jev.js";
import { MockOracle } from "./mock.js";
import type { Oracle, OracleKind } from "./oracle.js";
import { CachedOracle } from "./replay.js";

export const ORACLE_KINDS: readonly OracleKind[] = ["jev", "replay", "mock"];

export const DEFAULT_ORACLE_CACHE = "~/.stretto/oracle-cache";

export function isOracleKind(text: string): text is OracleKind {
  return (ORACLE_KINDS as readonly string[]).includes(text);
}

/** The CLI's `--oracle` (default `jev`) and `--oracle-cache` (default `~/.stretto/oracle-cache`). */
export interface OracleSettings {
  kind?: OracleKind;
  cache?: string;
}

/** What the oracle takes from outside; tests pass fakes. */
export interface OracleDeps {
  env?: NodeJS.ProcessEnv;
  sleep?: Sleep;
  http?: Got;
  readText?: ReadText;
}

export interface MadeOracle {
  oracle: Oracle;
  /** The expanded cache directory (`mock` has none). */
  cacheDir?: string;
  /**
   * Something to say once on stderr at start-up (prefixed `stretto-proxy: `), e.g.
   * `the System-One model has no key: TYPESAFE_API_KEY is not set`. The oracle is built
   * regardless; questions it cannot answer fail with the reason (see api-key.ts).
   */
  notice?: string;
}

/**
 * Builds the oracle the flow and the confirmation judge ask. Never fails:
 * - `mock`: deterministic, uncached;
 * - `replay`: the cache at `--oracle-cache`, a miss is an error;
 * - `jev`: the same cache in front of Jev (`TYPESAFE_BASE_URL`, the key from
 *   `TYPESAFE_API_KEY` or `TYPESAFE_API_KEY_FILE`, read once, now). Without a key, cached
 *   answers are still served and every miss fails with the key's reason.
 */
export function makeOracle(settings: OracleSettings = {}, deps: OracleDeps = {}): MadeOracle {
  const env = deps.env ?? process.env;
  const kind = settings.kind ?? "jev";
  if (kind === "mock") return { oracle: new MockOracle() };
  const cacheDir = expandTilde(settings.cache ?? DEFAULT_ORACLE_CACHE, env);
  const cache = new AnswerCache(cacheDir);
  if (kind === "replay") return { oracle: new CachedOracle("replay", cache), cacheDir };

  const readText = deps.readText ?? ((path: string) => readFileSync(path, "utf8"));
  const apiKey = resolveApiKey(env, readText);
  const notices: string[] = [];
  if ("missing" in apiKey) notices.push(`the System-One model has no key: ${apiKey.missing}`);
  let extraCa: string | undefined;
  const certFile = env["SSL_CERT_FILE"];
  if (certFile) {
    const path = expandTilde(certFile, env);
    try {
      extraCa = readText(path);
    } catch (err) {
      notices.push(`reading SSL_CERT_FILE ${path}: ${osErrorText(err)}`);
    }
  }
  const client = new JevClient({
    baseUrl: jevBaseUrl(env),
    apiKey,
    ...(deps.sleep === undefined ? {} : { sleep: deps.sleep }),
    ...(deps.http === undefined ? {} : { http: deps.http }),
    ...(extraCa === undefined ? {} : { extraCa }),
  });
  const made: MadeOracle = { oracle: new CachedOracle("jev", cache, client), cacheDir };
  if (notices.length > 0) made.notice = notices.join("; ");
  return made;
}
