/**
 * The conversation file that `stretto-proxy --context FILE` reads: one JSON line per
 * message, appended by the host. Written synchronously, so a message is in the file
 * before the call that follows it is sent (the proxy reads the file when it sees a call).
 */
import { appendFileSync } from "node:fs";

export type Role = "user" | "assistant";

export class Conversation {
  constructor(readonly path: string) {
    appendFileSync(path, "");
  }

  say(role: Role, content: string): void {
    appendFileSync(this.path, `${JSON.stringify({ role, content })}\n`);
  }
}
