import { COMMIT_TOOL_NAME } from "./listing.js";

export interface InnerCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** The calls of a `stretto_commit`, or undefined when its arguments are not of its form. */
export function innerCalls(args: unknown): InnerCall[] | undefined {
  const calls = (args as { calls?: unknown } | null | undefined)?.calls;
  if (!Array.isArray(calls) || calls.length === 0) return undefined;
  const out: InnerCall[] = [];
  for (const c of calls) {
    if (c === null || typeof c !== "object" || Array.isArray(c)) return undefined;
    const { name, arguments: a } = c as { name?: unknown; arguments?: unknown };
    if (typeof name !== "string" || name === COMMIT_TOOL_NAME) return undefined;
    if (a !== undefined && (a === null || typeof a !== "object" || Array.isArray(a))) return undefined;
    out.push({ name, arguments: (a ?? {}) as Record<string, unknown> });
  }
  return out;
}

/** `<name> <arguments as compact JSON>`, how a report names a call. */
export function callLabel(c: InnerCall): string {
  return `${c.name} ${JSON.stringify(c.arguments)}`;
}

/** What one answer says: the text an agent would read, and whether it failed (a JSON-RPC error or `isError`). */
export function answerText(response: { result?: unknown; error?: unknown }): { text: string; failed: boolean } {
  const error = response.error as { message?: unknown } | null | undefined;
  if (error !== undefined && error !== null) {
    return { text: typeof error.message === "string" ? error.message : "error", failed: true };
  }
  const result = response.result as { content?: unknown; isError?: unknown } | null | undefined;
  const items = Array.isArray(result?.content) ? (result.content as Array<{ text?: unknown }>) : [];
  const text = items
    .filter((i) => i !== null && typeof i === "object" && typeof i.text === "string")
    .map((i) => i.text as string)
    .join("\n");
  return { text, failed: result?.isError === true };
}
