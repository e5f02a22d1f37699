import type { Plugin, PluginContext, PluginFactory } from "../../bus/runtime/api.js";
import { requestOf } from "../../bus/runtime/json-rpc.js";
import type { ContextFile } from "./context-file.js";

/**
 * `--context FILE`: logs the conversation's new lines as `context` entries just before each
 * tool call, so they sit in order with the tool traffic and the session's Episode has the
 * customer's words when guards and flows look. Other plugins read on demand through
 * `readContext` (before each guard check, each commit call, each flow decision).
 */
export interface ContextReader {
  /** Logs whatever the host appended since the last read. */
  readContext(): void;
}

export function contextReader(file: ContextFile | undefined, session: PluginContext): ContextReader {
  return {
    readContext() {
      if (!file) return;
      for (const l of file.readNew()) session.log("context", Buffer.concat([l, Buffer.from("\n")]));
    },
  };
}

export function contextPlugin(file: ContextFile, share: (reader: ContextReader) => void = () => {}): PluginFactory {
  return (session): Plugin => {
    const reader = contextReader(file, session);
    share(reader);
    return {
      name: "context",
      sees(f) {
        if (f.from !== "client") return;
        if (requestOf(f)?.method === "tools/call") reader.readContext();
      },
      hostEnded: () => reader.readContext(),
    };
  };
}
