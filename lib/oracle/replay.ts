import { AnswerCache, requestKey } from "./cache.js";
import { OracleError, type Oracle, type OracleKind, type OracleRequest, type OracleResponse } from "./oracle.js";

/**
 * The cache in front of another oracle (`jev`), or alone (`replay`):
 * a hit is returned as it is (the model id is not checked); a miss asks `inner`, stores
 * the answer and returns it, or, with no inner oracle, fails with
 * `replay cache miss for request <key>`.
 */
export class CachedOracle implements Oracle {
  constructor(
    readonly kind: OracleKind,
    readonly cache: AnswerCache,
    private readonly inner?: Oracle,
  ) {}

  async ask(request: OracleRequest): Promise<OracleResponse> {
    const key = requestKey(request);
    const hit = await this.cache.read(key);
    if (hit !== undefined) return hit;
    if (this.inner === undefined) throw new OracleError(`replay cache miss for request ${key}`);
    const response = await this.inner.ask(request);
    await this.cache.write(key, response);
    return response;
  }
}

/** `--oracle replay`: answers from `dir` only. */
export function replayOracle(dir: string): CachedOracle {
  return new CachedOracle("replay", new AnswerCache(dir));
}
