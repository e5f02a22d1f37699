/**
 * What `flow-show` and `flow-diff` share: reading a flow file through the flow loader, a
 * number option, and writing a report to `--out` or stdout. A failure is a ReviewError whose
 * message is the whole line after `stretto: `; each command picks its exit code.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { FlowLoadError, parseFlow, type Flow } from "../../flow/ir/index.js";
import { osErrorText } from "../../util/os-errors.js";
import { UsageError, type Command, type Io, type ParsedArgs } from "./command.js";

export class ReviewError extends Error {
  override name = "ReviewError";
}

/** The flow at `path`; a file that cannot be read or is no flow says which file and why. */
export function readFlow(path: string): Flow {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ReviewError(`reading ${path}: ${osErrorText(e)}`);
  }
  try {
    return parseFlow(text);
  } catch (e) {
    if (e instanceof FlowLoadError) throw new ReviewError(`loading ${path}: ${e.message}`);
    throw e;
  }
}

/** A number option, or its default; anything but a finite number is a usage error. */
export function numberOption(command: Command, args: ParsedArgs, name: string, value: string, fallback: number): number {
  const raw = args.options.get(name);
  if (raw === undefined) return fallback;
  const x = raw.trim() === "" ? NaN : Number(raw);
  if (!Number.isFinite(x) || x < 0) {
    throw new UsageError(`invalid value '${raw}' for '${name} <${value}>': a number, 0 or more`, command.usage);
  }
  return x;
}

/** Writes `markdown` to `--out` (making its folder) or, without it, to stdout as it is. */
export async function writeReport(args: ParsedArgs, io: Io, markdown: string): Promise<void> {
  const out = args.options.get("--out");
  if (out === undefined) {
    await new Promise<void>((resolve) => io.stdout.write(markdown, () => resolve()));
    return;
  }
  try {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, markdown);
  } catch (e) {
    throw new ReviewError(`writing ${out}: ${osErrorText(e)}`);
  }
}
