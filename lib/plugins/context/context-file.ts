import { accessSync, closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import { osErrorText } from "../../util/os-errors.js";

/**
 * The conversation file a host appends to (`--context`): one JSON line per message,
 * `{"role": "user" | "assistant", "content": text}`. MCP never carries the conversation,
 * so this is how guards, the judge and flows learn what the customer said.
 *
 * Read on demand, never polled: each read opens the file, starts at the byte offset already
 * taken, and takes whole lines only (a partial last line waits for the next read). It is
 * read synchronously, just before a guard check or a decision that must see it, which is
 * why this is not a split2 stream like the proxy's other text JSONL readers. The
 * offset is never reset, so a rewritten file is read on from where it was. A missing file,
 * a directory, or any read error yields nothing (the proxy says so once at start, see
 * `contextFileNotice`).
 */
export class ContextFile {
  private offset = 0;

  constructor(readonly path: string) {}

  /** The complete new lines since the last read, each without its `\n`, blank ones skipped. */
  readNew(): Buffer[] {
    let fd: number;
    try {
      fd = openSync(this.path, "r");
    } catch {
      return [];
    }
    try {
      const size = fstatSync(fd).size;
      if (size <= this.offset) return [];
      const chunk = Buffer.alloc(size - this.offset);
      let got = 0;
      while (got < chunk.length) {
        const n = readSync(fd, chunk, got, chunk.length - got, this.offset + got);
        if (n === 0) break;
        got += n;
      }
      const end = chunk.subarray(0, got).lastIndexOf(0x0a);
      if (end === -1) return [];
      this.offset += end + 1;
      return splitLines(chunk.subarray(0, end + 1)).filter((l) => !isBlank(l));
    } catch {
      return [];
    } finally {
      closeSync(fd);
    }
  }
}

function splitLines(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let nl = buf.indexOf(0x0a); nl !== -1; nl = buf.indexOf(0x0a, start)) {
    out.push(buf.subarray(start, nl));
    start = nl + 1;
  }
  return out;
}

function isBlank(line: Buffer): boolean {
  for (const b of line) if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a && b !== 0x0b && b !== 0x0c) return false;
  return true;
}

/**
 * The one line the proxy says at start when the conversation cannot be read yet, else
 * undefined. The host may create the file after the proxy starts, so this is a notice,
 * not an error: reading goes on before each tool call as usual.
 */
export function contextFileNotice(path: string): string | undefined {
  // stat and access, not open: opening a FIFO would wait for a writer.
  try {
    if (statSync(path).isDirectory()) return `the conversation file ${path} is a folder; nothing is read from it`;
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return `the conversation file ${path} does not exist yet; it is read once the host creates it`;
    return `the conversation file ${path} cannot be read (${osErrorText(err)}); it is tried again before each tool call`;
  }
}
