/**
 * A reading of a session's closed past held in what a binding can still read of it, not in
 * what crossed the session (docs/session-memory.md): a session of many short turns reads a
 * million outputs and calls, and shows a few thousand distinct ones.
 *
 * What goes, and why a binding reads the same without it:
 * - an output that shows what a newer output of the same tool shows (the same text, parsed
 *   once, so the same scalars): a binding walks outputs newest first, and an output it meets
 *   again gives the found lists it already walked; the newest place stays, so the most
 *   recent output (the site) and the order of the others stay;
 * - of the calls that passed one value as one argument, those after the first that returned
 *   something, and those that failed: `returned` reads the first call that returned
 *   something, `used` only whether any passed it; a call still awaiting its result stays;
 * - what the outputs and calls that went were found under (`outputOf`, the failed calls);
 * - the mentions matched against its outputs, found again from the outputs that stay.
 * The customer's text, the values they gave, the values seen and the tools called are kept
 * as they are: each is already one entry per distinct value.
 *
 * Exact unless a call id is used again after its call was let go (a host may reuse an
 * answered id): the whole Episode would then read the earlier call's output for it.
 */
import type { ToolCall } from "../../trace/episode-types.js";
import type { Output, SessionReading } from "./session.js";

export function compactReading(reading: SessionReading): void {
  const kept: Output[] = [];
  const shown = new Map<string, Set<ReadonlySet<string>>>();
  for (let i = reading.outputs.length - 1; i >= 0; i--) {
    const out = reading.outputs[i]!;
    let byTool = shown.get(out.tool);
    if (byTool === undefined) shown.set(out.tool, (byTool = new Set()));
    // One parse per distinct text (the live views' `ParseOutput`): the same scalars are the same text.
    if (byTool.has(out.scalars)) continue;
    byTool.add(out.scalars);
    kept.push(out);
  }
  kept.reverse();
  reading.outputs.length = 0;
  const by = new Map<string, Output[]>();
  for (const out of kept) {
    reading.outputs.push(out);
    const same = by.get(out.tool);
    if (same === undefined) by.set(out.tool, [out]);
    else same.push(out);
  }
  if (reading.outputsBy !== undefined) reading.outputsBy = by;

  const outputOf = reading.outputOf;
  const failed = reading.failedCalls;
  const returned = new Map<string, Output>();
  if (reading.passed !== undefined)
    for (const byArg of reading.passed.values())
      for (const byText of byArg.values())
        for (const [text, calls] of byText) {
          const left: ToolCall[] = [];
          for (const c of calls) {
            const out = outputOf?.get(c.id);
            if (out !== undefined) {
              left.push(c);
              returned.set(c.id, out);
              break;
            }
            if (failed?.has(c.id) !== true) left.push(c);
          }
          byText.set(text, left);
        }
  if (outputOf !== undefined) reading.outputOf = returned;
  reading.failedCalls = undefined;
  reading.mentions = undefined;
}
