import { sortedJson } from "../../util/sorted-json.js";
import { field, type Json, type JsonObject } from "../json.js";
import type { ToolReply, World } from "./world.js";

const INPUT_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    text: { type: "string", description: "Anything; echoed back." },
    fail: { type: "boolean", description: "Return an error result instead." },
    delay_ms: {
      type: "integer",
      minimum: 0,
      description: "Wait this long before answering (at most 10 000).",
    },
  },
};

function tool(name: string, description: string, readOnly: boolean): JsonObject {
  return { name, description, inputSchema: INPUT_SCHEMA, annotations: { readOnlyHint: readOnly } };
}

/** `lookup` (read-only) and `update` (a write), which store nothing and echo their arguments. */
export const echoWorld: World = {
  tools: () => [
    tool("lookup", "Look something up. Read-only; answers with its arguments.", true),
    tool("update", "Pretend to change something; answers with its arguments.", false),
  ],
  call(name: string, args: Json): ToolReply | undefined {
    if (name !== "lookup" && name !== "update") return undefined;
    const text = sortedJson(args);
    return field(args, "fail") === true
      ? { text: `${name} failed, as asked: ${text}`, isError: true }
      : { text, isError: false };
  },
};
