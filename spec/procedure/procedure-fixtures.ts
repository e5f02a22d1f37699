/** Paths of the procedure fixtures, and a phone double to run them on in-process. */
import { join } from "node:path";
import { ROOT } from "../helpers/processes.js";
import type { JsonObject } from "../../lib/procedure/json.js";
import type { ToolResult, Tools } from "../../lib/procedure/run.js";

export const PUBLISHED = join(ROOT, "fixtures/procedures/telecom-workflow-2026-09-26.procedure.json");
export const AIRPLANE = join(ROOT, "fixtures/procedures/airplane-mode.procedure.json");

/**
 * A phone in airplane mode or not: the customer's line, its status bar, a switch. Every
 * call is logged with its arguments; any other tool fails.
 */
export class PhoneDouble implements Tools {
  readonly log: Array<{ tool: string; args: JsonObject }> = [];
  constructor(public airplane: boolean) {}

  call(tool: string, args: JsonObject): Promise<ToolResult> {
    this.log.push({ tool, args });
    return Promise.resolve(this.answer(tool));
  }

  private answer(tool: string): ToolResult {
    switch (tool) {
      case "get_customer_by_phone":
        return ok('{"customer_id":"C9","line_ids":["L9"]}');
      case "check_status_bar":
        return ok(this.airplane ? "Status Bar: ✈️ Airplane Mode" : "Status Bar: 📶⁴ Excellent");
      case "toggle_airplane_mode":
        this.airplane = !this.airplane;
        return ok("Airplane Mode is now OFF.");
      case "resume_line":
        return ok("ok");
      default:
        return { content: "no such tool", failed: true };
    }
  }
}

function ok(content: string): ToolResult {
  return { content, failed: false };
}

/** Tools that answer from a script, in turn, and log what they were asked. */
export class ScriptedTools implements Tools {
  readonly log: string[] = [];
  constructor(private readonly answers: ToolResult[]) {}
  call(tool: string): Promise<ToolResult> {
    this.log.push(tool);
    return Promise.resolve(this.answers.shift() ?? { content: "", failed: true });
  }
}

/** The built `stretto-procedure`. */
export const PROCEDURE_BIN = join(ROOT, "dist/lib/cli/stretto-procedure.js");

/**
 * The reference's test server: answers every line holding `"id"` with a text `ok`,
 * numbering its answers 1, 2, 3…, and exits at the end of its input.
 */
export const ANSWERS_OK =
  'n=0; while IFS= read -r line; do case "$line" in *\'"id"\'*) n=$((n+1)); ' +
  'printf \'{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"ok"}]}}\\n\' "$n";; esac; done';

export const NO_DATA_TICKET = "The customer at 555-123-4567 has no mobile data.";
