import { createReadStream } from "node:fs";
import split2 from "split2";

/** An unfinished line longer than this in a text JSONL file is an error, not something to hold. */
export const MAX_TEXT_LINE = 64 * 1024 * 1024;

/**
 * The lines of a text JSONL file the proxy wrote (a flow log, a confirm log), read as a
 * stream with split2: memory follows the longest line, not the file. Lines are UTF-8 text
 * here; the wire, where a line's exact bytes matter, keeps the bus's byte splitter. Rejects
 * with the read error, or when an unfinished line held between reads passes `maxLength`
 * characters (so memory stays within the bound plus one read).
 */
export async function* textLines(path: string, maxLength = MAX_TEXT_LINE): AsyncGenerator<string> {
  const file = createReadStream(path);
  const lines = split2({ maxLength });
  // pipe() does not pass a read error (ENOENT, EISDIR) on: end the splitter with it, so the loop sees it.
  file.on("error", (e) => lines.destroy(e));
  file.pipe(lines);
  const source = lines as AsyncIterable<string>;
  for await (const line of source) yield line;
}
