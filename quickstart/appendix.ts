/**
 * Reading what a flow appended to a tool result, the way an agent told "no need to repeat
 * these calls" would: each lookup's tool, arguments and text, keyed so that the agent can
 * see that a call it is about to make has already been made for it.
 */
import { sortedJson } from "../lib/util/sorted-json.js";

/** The header of the text item a flow appends (the proxy's appendix format). */
export const APPENDIX = "--- Also looked up automatically (current results; no need to repeat these calls) ---";

export interface Looked {
  tool: string;
  arguments: Record<string, unknown>;
  error: boolean;
  text: string;
}

/** A call's identity: its tool and its arguments with keys sorted. */
export const callKey = (tool: string, args: Record<string, unknown>): string => `${tool} ${sortedJson(args)}`;

/** The lookups listed in an appendix text, or none when the text is not one. */
export function lookupsIn(text: string): Looked[] {
  if (!text.startsWith(`${APPENDIX}\n\n`)) return [];
  const parts = text.slice(APPENDIX.length + 2).split("\n\n");
  const looked: Looked[] = [];
  for (const part of parts) {
    const nl = part.indexOf("\n");
    const head = nl < 0 ? part : part.slice(0, nl);
    const m = /^(\S+) (\{.*\})( \(error\))?:$/.exec(head);
    if (m === null) continue;
    looked.push({
      tool: m[1]!,
      arguments: JSON.parse(m[2]!) as Record<string, unknown>,
      error: m[3] !== undefined,
      text: nl < 0 ? "" : part.slice(nl + 1),
    });
  }
  return looked;
}
