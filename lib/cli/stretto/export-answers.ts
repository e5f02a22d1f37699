/**
 * `stretto export-answers [--oracle-cache DIR]`: every answer in the System-One model's cache
 * on stdout, one compact JSON line each, `{"key": K, "response": R}`, sorted by key, so a
 * cache filled on one machine can be carried to another (`stretto import-answers`).
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { AnswerCache } from "../../oracle/cache.js";
import { isAnswerPlace } from "../../oracle/cache-layout.js";
import { OracleError } from "../../oracle/oracle.js";
import { osErrorText } from "../../util/os-errors.js";
import { EXIT_OK, EXIT_UNREADABLE, say, TextOut, UsageError, type Command, type Io, type ParsedArgs } from "./command.js";
import { ORACLE_CACHE } from "./audited-flow.js";

const USAGE = "stretto export-answers [--oracle-cache DIR]";

export const exportAnswersCommand: Command = {
  name: "export-answers",
  usage: USAGE,
  summary: "Print the System-One model's cached answers as JSON lines (for import-answers).",
  help: [
    "Prints every answer in the cache, one line each: {\"key\": K, \"response\": R}, sorted",
    "by key. Only the cache's two-digit folders and the <key>.json files in them are read; a",
    "missing cache prints nothing. The answers quote the sessions they were asked about:",
    "treat the output as you treat the session logs.",
    "",
    `  --oracle-cache DIR  The cache (default ${ORACLE_CACHE}).`,
  ].join("\n"),
  valueOptions: ["--oracle-cache"],
  run: (args, io) => exportAnswers(args, io),
};

/** The keys of every answer file in the cache, sorted; none when the cache does not exist. */
export async function cachedKeys(dir: string): Promise<string[]> {
  let folders: string[];
  try {
    folders = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new OracleError(`reading ${dir}: ${osErrorText(e)}`);
  }
  const keys: string[] = [];
  for (const folder of folders.filter((f) => /^[0-9a-f]{2}$/.test(f))) {
    let files: string[];
    try {
      files = await readdir(join(dir, folder));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOTDIR") continue;
      throw new OracleError(`reading ${join(dir, folder)}: ${osErrorText(e)}`);
    }
    for (const f of files) if (isAnswerPlace(folder, f)) keys.push(f.slice(0, -".json".length));
  }
  return keys.sort();
}

async function exportAnswers(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`export-answers takes no positional arguments, not ${args.positionals.join(" ")}`, USAGE);
  const cache = new AnswerCache(args.options.get("--oracle-cache") ?? ORACLE_CACHE);
  const out = new TextOut(io.stdout);
  try {
    for (const key of await cachedKeys(cache.dir)) {
      const response = await cache.read(key);
      if (response !== undefined) await out.write(`${JSON.stringify({ key, response })}\n`);
    }
  } catch (e) {
    await out.flush();
    if (!(e instanceof OracleError)) throw e;
    say(io, e.message);
    return EXIT_UNREADABLE;
  }
  await out.flush();
  return EXIT_OK;
}
