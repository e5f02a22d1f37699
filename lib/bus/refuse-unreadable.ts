import { errorLine } from "../protocol/compose.js";
import type { LineCheck } from "../protocol/line-check.js";

type Refused = Extract<LineCheck, { ok: false }>;

/** The message an agent reads when its line was not forwarded. */
export function unreadableMessage(why: string): string {
  return `stretto-proxy did not forward this line: ${why}`;
}

/**
 * Answers a host line that failed the strict check: one JSON-RPC error per id that can be
 * read from it (in one array when the line was a batch), or one error without an id when
 * none can; says why on stderr. Nothing of the line goes on.
 */
export function refuseUnreadable(check: Refused, session: { toClient(bytes: Buffer, kind?: "refusal"): void; say(message: string): void }): void {
  session.say(`refused a line from the client: ${check.why}`);
  const message = unreadableMessage(check.why);
  const ids = [...new Set(check.idTexts)];
  if (ids.length === 0) {
    session.toClient(errorLine(undefined, check.code, message), "refusal");
  } else if (!check.batch) {
    for (const id of ids) session.toClient(errorLine(id, check.code, message), "refusal");
  } else {
    const items = ids.map((id) => errorLine(id, check.code, message).toString("utf8").trimEnd());
    session.toClient(Buffer.from(`[${items.join(",")}]\n`), "refusal");
  }
}
