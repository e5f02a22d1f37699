import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PluginFactory } from "../bus/runtime/api.js";
import { ContextFile } from "../plugins/context/context-file.js";
import { contextPlugin } from "../plugins/context/context-plugin.js";
import { bytesOf, type ScriptLine } from "./lines.js";

const STEP: unique symbol = Symbol("conversation step");

/** A step of the host script that appends lines to the conversation file instead of sending a line. */
export interface ConversationStep {
  readonly [STEP]: readonly ScriptLine[];
}

/**
 * A host-script step: the host appends these lines (`{role, content}` objects, or raw text)
 * to its conversation file at this point of the session, as a host does when the customer
 * speaks between tool calls. Needs nothing else: the kit wires the context plugin.
 */
export function conversationSays(...lines: ScriptLine[]): ConversationStep {
  return { [STEP]: lines };
}

export function isConversationStep(v: unknown): v is ConversationStep {
  return typeof v === "object" && v !== null && STEP in v;
}

export function stepLines(step: ConversationStep): readonly ScriptLine[] {
  return step[STEP];
}

/**
 * The host's conversation file, in a temporary folder, read by the real context plugin
 * (`--context`), so the CONVERSATION service and the `context` entries are the live ones.
 */
export class TestConversation {
  private readonly dir = mkdtempSync(join(tmpdir(), "stretto-kit-"));
  readonly path = join(this.dir, "conversation.jsonl");

  constructor(lines: readonly ScriptLine[]) {
    writeFileSync(this.path, Buffer.concat(lines.map(bytesOf)));
  }

  append(lines: readonly ScriptLine[]): void {
    appendFileSync(this.path, Buffer.concat(lines.map(bytesOf)));
  }

  plugin(): PluginFactory {
    return contextPlugin(new ContextFile(this.path));
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
