/**
 * `stretto import-answers [--oracle-cache DIR]`: stores the answers `stretto export-answers`
 * printed (JSON lines on stdin) in the System-One model's cache, each written whole (a
 * temporary file renamed into place). Blank lines are skipped; the first line that is not an
 * answer stops the import (exit 1), naming its line.
 */
import type { Readable } from "node:stream";
import split2 from "split2";
import { AnswerCache } from "../../oracle/cache.js";
import { isRequestKey } from "../../oracle/cache-layout.js";
import { OracleError, parseResponse } from "../../oracle/oracle.js";
import { isObject } from "../../util/is-object.js";
import { errorText } from "../../util/error-text.js";
import { MAX_TEXT_LINE } from "../../util/text-lines.js";
import { EXIT_OK, EXIT_UNREADABLE, say, UsageError, type Command, type Io, type ParsedArgs } from "./command.js";
import { ORACLE_CACHE } from "./audited-flow.js";

const USAGE = "stretto import-answers [--oracle-cache DIR] < answers.jsonl";

export const importAnswersCommand: Command = {
  name: "import-answers",
  usage: USAGE,
  summary: "Store answers printed by export-answers (JSON lines on stdin) in the cache.",
  help: [
    "Reads {\"key\": K, \"response\": R} lines from stdin, as stretto export-answers prints",
    "them, and stores each response in the cache under its key (at least three lowercase hex",
    "digits), replacing an answer already there. Blank lines are skipped; a line that is not",
    "an answer stops the import (exit 1).",
    "",
    `  --oracle-cache DIR  The cache (default ${ORACLE_CACHE}).`,
  ].join("\n"),
  valueOptions: ["--oracle-cache"],
  run: (args, io) => importAnswers(args, io, process.stdin),
};

class ImportError extends Error {
  override name = "ImportError";
}

/** One line's key and response. */
function parseLine(line: string, n: number) {
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch (e) {
    throw new ImportError(`line ${n}: not JSON: ${errorText(e)}`);
  }
  if (!isObject(doc) || typeof doc["key"] !== "string" || !("response" in doc)) throw new ImportError(`line ${n}: not an answer: expected {"key", "response"}`);
  const key = doc["key"];
  if (!isRequestKey(key)) throw new ImportError(`line ${n}: not a request key: ${JSON.stringify(key)}`);
  try {
    return { key, response: parseResponse(JSON.stringify(doc["response"])) };
  } catch (e) {
    throw new ImportError(`line ${n}: not an answer: ${errorText(e)}`);
  }
}

export async function importAnswers(args: ParsedArgs, io: Io, stdin: Readable): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`import-answers takes no positional arguments, not ${args.positionals.join(" ")}`, USAGE);
  const cache = new AnswerCache(args.options.get("--oracle-cache") ?? ORACLE_CACHE);
  const lines = stdin.pipe(split2({ maxLength: MAX_TEXT_LINE })) as AsyncIterable<string>;
  let n = 0;
  let imported = 0;
  try {
    for await (const line of lines) {
      n += 1;
      if (line.trim() === "") continue;
      const { key, response } = parseLine(line, n);
      await cache.write(key, response);
      imported += 1;
    }
  } catch (e) {
    if (!(e instanceof ImportError || e instanceof OracleError)) throw e;
    say(io, `${e.message} (imported ${imported} answers before it)`);
    return EXIT_UNREADABLE;
  }
  say(io, `imported ${imported} answers`);
  return EXIT_OK;
}
