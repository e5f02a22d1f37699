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
  await writeReportTexts(io, args.options, markdown, `${JSON.stringify(json, null, 2)}\n`);
}

/**
 * The JSON text to `--json` when given (first, so a path that cannot be written fails before
 * anything is printed), then the Markdown to `--out` or stdout.
 */
export async function writeReportTexts(io: Io, options: ReadonlyMap<string, string>, markdown: string, jsonText: string): Promise<void> {
  const jsonPath = options.get("--json");
  if (jsonPath !== undefined) await writeReportFile(jsonPath, jsonText);
  const out = options.get("--out");
  if (out !== undefined) {
    await writeReportFile(out, markdown);
    return;
  }
  const text = new TextOut(io.stdout);
  await text.write(markdown);
  await text.flush();
}
