/**
 * `stretto doctor --network`: one question to TypeSafe's Jev, sent past the cache so the
 * answer is fresh, and asked once (no retries), so a failure shows at once as it is.
 */
import { resolveApiKey } from "../oracle/api-key.js";
import { JevClient, jevBaseUrl } from "../oracle/jev.js";
import { DEFAULT_MODEL, type OracleRequest } from "../oracle/oracle.js";
import { errorText } from "../util/error-text.js";
import type { Finding } from "./finding.js";
import { keyIsSet } from "./key.js";

const QUESTION: OracleRequest = {
  model: DEFAULT_MODEL,
  state: { check: "stretto doctor --network", sky: "The sky is blue on a clear day." },
  questions: { ok: { type: "noul", instructions: "Does the state say that the sky is blue on a clear day?" } },
};

export async function askJev(env: NodeJS.ProcessEnv): Promise<Finding> {
  if (!keyIsSet(env)) return { level: "note", text: "--network: no key is set, so Jev was not asked" };
  const client = new JevClient({ baseUrl: jevBaseUrl(env), apiKey: resolveApiKey(env), backoffMs: [] });
  const started = performance.now();
  try {
    const answer = await client.ask(QUESTION);
    const ms = Math.round(performance.now() - started);
    const ok = answer.answers["ok"];
    const p = ok?.type === "noul" ? ok.noul.toFixed(3) : "?";
    return { level: "ok", text: `Jev OK: model ${answer.model}, P(yes) = ${p}, ${answer.usage.input_tokens} input tokens, ${ms} ms` };
  } catch (e) {
    return { level: "problem", text: `Jev did not answer: ${errorText(e)}` };
  }
}
