import { CONVERSATION, type Conversation, type Plugin, type PluginContext, type PluginFactory, requestOf } from "../index.js";
import type { ContextFile } from "./context-file.js";

/**
 * `--context FILE`: logs the conversation's new lines as `context` entries just before each
 * tool call, so they sit in order with the tool traffic and the session's Episode has the
 * customer's words when guards and flows look. Other plugins read on demand through the
 * CONVERSATION service (before each guard check, each commit call, each flow decision).
 */
export function conversation(file: ContextFile | undefined, session: PluginContext): Conversation {
  return {
    readContext() {
      if (!file) return;
      for (const l of file.readNew()) session.log("context", Buffer.concat([l, Buffer.from("\n")]));
    },
  };
}

export function contextPlugin(file: ContextFile): PluginFactory {
  return (session): Plugin => {
    const reader = conversation(file, session);
    session.provide(CONVERSATION, reader);
    return {
      name: "context",
      readsEpisode: false,
      sees(f) {
        if (f.from !== "client") return;
        if (requestOf(f)?.method === "tools/call") reader.readContext();
      },
      hostEnded: () => reader.readContext(),
    };
  };
}
