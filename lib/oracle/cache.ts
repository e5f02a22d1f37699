import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import canonicalizeModule from "canonicalize";
import { makeDirs } from "../util/make-dirs.js";
import { osErrorText } from "../util/os-errors.js";
import { createNewHandle } from "../util/safe-open.js";
import { answerFolder, isRequestKey } from "./cache-layout.js";
import { OracleError, parseResponse, type OracleRequest, type OracleResponse } from "./oracle.js";
import { errorText } from "../util/error-text.js";

// The package is CommonJS with an ES-style `export default` in its types: under NodeNext
// the default import is `module.exports` itself, typed as the module. Take whichever holds
// the function.
const canonicalize = ((canonicalizeModule as unknown as { default?: unknown }).default ?? canonicalizeModule) as (
  input: unknown,
) => string | undefined;

/**
 * A request's cache key: lowercase hex SHA-256 of its canonical JSON (RFC 8785), so equal
 * requests hash equally whatever order their keys were built in, and a cache filled by one
 * program (`learn`, the proxy, another implementation that canonicalizes the same way) is
 * hit by the others.
 */
export function requestKey(request: OracleRequest): string {
  const text = canonicalize(request);
  if (text === undefined) throw new OracleError("the request cannot be written as JSON");
  return createHash("sha256").update(text, "utf8").digest("hex");
}

export { isRequestKey };

let tempCounter = 0;

/**
 * Answers on disk, one pretty-printed response per file at `<dir>/<key[0..2]>/<key>.json`.
 * Writes go to `<key>.tmp<pid>-<n>` beside it and are renamed into place, so a reader never
 * sees half an answer and two writers of one key leave one whole file. Folders it creates
 * are 0700 and files 0600: the answers quote the sessions they were asked about.
 */
export class AnswerCache {
  constructor(readonly dir: string) {}

  /** The file for `key`; throws `not a request key: …` for a key that is not hex. */
  pathOf(key: string): string {
    if (!isRequestKey(key)) throw new OracleError(`not a request key: ${key}`);
    return join(this.dir, answerFolder(key), `${key}.json`);
  }

  /**
   * The cached answer, or `undefined` when there is none. A file that is not an answer is an
   * error. An answer is a few kilobytes, read in one synchronous call: four trips through
   * libuv's thread pool (open, stat, read, close) cost a judged write more than the read.
   */
  read(key: string): Promise<OracleResponse | undefined> {
    return new Promise((resolve) => resolve(this.readNow(key)));
  }

  private readNow(key: string): OracleResponse | undefined {
    const path = this.pathOf(key);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new OracleError(`reading ${path}: ${osErrorText(err)}`);
    }
    try {
      return parseResponse(text);
    } catch (err) {
      throw new OracleError(`reading ${path}: ${errorText(err)}`);
    }
  }

  /** Stores `response` under `key` atomically (temp file, then rename). */
  async write(key: string, response: OracleResponse): Promise<void> {
    const path = this.pathOf(key);
    const parent = join(this.dir, answerFolder(key));
    try {
      makeDirs(parent);
    } catch (err) {
      throw new OracleError(`creating ${parent}: ${osErrorText(err)}`);
    }
    const temp = join(parent, `${key}.tmp${process.pid}-${tempCounter++}`);
    let created = false;
    try {
      const file = await createNewHandle(temp);
      created = true;
      try {
        await file.writeFile(JSON.stringify(response, null, 2));
      } finally {
        await file.close();
      }
      await rename(temp, path);
    } catch (err) {
      // Only a temp file made here is removed: whatever else was at that name is not ours.
      if (created) await unlink(temp).catch(() => undefined);
      throw new OracleError(`writing ${path}: ${osErrorText(err)}`);
    }
  }
}
