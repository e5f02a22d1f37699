import { pretty } from "./json.js";
import type { Run, Verdict } from "./run.js";

/**
 * A run as pretty JSON plus a newline, keys in the reference's order: `calls`, `check`,
 * `verdict`, and in a call `tool`, `arguments`, `failed`; arguments' keys sorted.
 */
export function runJson(run: Run): string {
  const I1 = "  ";
  const I2 = "    ";
  const I3 = "      ";
  const calls =
    run.calls.length === 0
      ? "[]"
      : `[\n${run.calls
          .map(
            (c) =>
              `${I2}{\n${I3}"tool": ${JSON.stringify(c.tool)},\n${I3}"arguments": ${pretty(c.arguments, I3)},\n` +
              `${I3}"failed": ${c.failed}\n${I2}}`,
          )
          .join(",\n")}\n${I1}]`;
  const check = run.check === null ? "null" : pretty(run.check, I1);
  return `{\n${I1}"calls": ${calls},\n${I1}"check": ${check},\n${I1}"verdict": ${JSON.stringify(run.verdict)}\n}\n`;
}

const MEANINGS: Record<Verdict, string> = {
  resolved: "resolved by its own check",
  transferred: "transferred to a person",
  hand_back: "handed back: its check failed",
};

/** What a verdict means, for the summary line. */
export function verdictMeaning(verdict: Verdict): string {
  return MEANINGS[verdict];
}

/** The one-line summary for stderr: `stretto-procedure: N calls, <meaning>`. */
export function runSummary(run: Run): string {
  return `stretto-procedure: ${run.calls.length} calls, ${verdictMeaning(run.verdict)}\n`;
}
