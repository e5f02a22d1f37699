/**
 * Where a scoring command's report goes: Markdown to stdout or `--out`, and JSON to `--json`
 * when asked, each file's folder made first. A failed write says `writing {path}: {error}`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { osErrorText } from "../../util/os-errors.js";
import { TextOut, type Io, type ParsedArgs } from "./command.js";

export class ReportWriteError extends Error {
  override name = "ReportWriteError";
}

/** Writes `text` to `path`, making its folder first. */
export async function writeReportFile(path: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  } catch (e) {
    throw new ReportWriteError(`writing ${path}: ${osErrorText(e)}`);
  }
}

/** The Markdown to `--out` or stdout, and `json` (pretty) to `--json` when given. */
export async function writeReports(io: Io, args: ParsedArgs, markdown: string, json: unknown): Promise<void> {
  const out = args.options.get("--out");
  const jsonPath = args.options.get("--json");
  if (out === undefined) {
    const text = new TextOut(io.stdout);
    await text.write(markdown);
    await text.flush();
  } else {
    await writeReportFile(out, markdown);
  }
  if (jsonPath !== undefined) await writeReportFile(jsonPath, `${JSON.stringify(json, null, 2)}\n`);
}
