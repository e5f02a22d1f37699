/**
 * The spans of an OTLP/JSON traces file that say what an agent did: tool executions
 * (`gen_ai.operation.name` `execute_tool`, or an MCP `tools/call` by `mcp.method.name`)
 * and LLM calls (`gen_ai.operation.name` `chat`, `text_completion` or `generate_content`).
 * The file is what an OpenTelemetry collector's file exporter writes, one traces document
 * per line, or a single document (pretty-printed or not); each is checked against the
 * OTLP schema. Other spans are dropped as they are read.
 */
import { readFile } from "node:fs/promises";
import { describeJsonSyntaxError } from "../../util/json-syntax-error.js";
import { osErrorText } from "../../util/os-errors.js";
import { textLines } from "../../util/text-lines.js";
import type { JsonObject } from "../json.js";
import { LogReadError } from "../read-log.js";
import { otlpProblem } from "./otlp-schema.js";
import { attributeObject, type OtlpKeyValue } from "./otlp-values.js";

export type SpanKind = "tool" | "chat";

export interface AgentSpan {
  kind: SpanKind;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  start: bigint;
  end: bigint;
  attributes: JsonObject;
  /** The span's status is ERROR. */
  failed: boolean;
}

const CHAT = new Set(["chat", "text_completion", "generate_content"]);

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano?: string | number;
  attributes?: OtlpKeyValue[];
  status?: { code?: number | string };
}

interface OtlpDocument {
  resourceSpans: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function kindOf(attributes: JsonObject): SpanKind | undefined {
  const op = attributes["gen_ai.operation.name"];
  if (op === "execute_tool" || attributes["mcp.method.name"] === "tools/call") return "tool";
  if (typeof op === "string" && CHAT.has(op)) return "chat";
  return undefined;
}

function spansOf(doc: OtlpDocument, into: AgentSpan[]): void {
  for (const rs of doc.resourceSpans) {
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        const attributes = attributeObject(s.attributes);
        const kind = kindOf(attributes);
        if (kind === undefined) continue;
        const start = BigInt(s.startTimeUnixNano);
        const code = s.status?.code;
        into.push({
          kind,
          traceId: s.traceId,
          spanId: s.spanId,
          ...(s.parentSpanId === undefined || s.parentSpanId === "" ? {} : { parentSpanId: s.parentSpanId }),
          start,
          end: s.endTimeUnixNano === undefined ? start : BigInt(s.endTimeUnixNano),
          attributes,
          failed: code === 2 || code === "STATUS_CODE_ERROR",
        });
      }
    }
  }
}

function checked(doc: unknown, where: string): OtlpDocument {
  const problem = otlpProblem(doc);
  if (problem !== undefined) throw new LogReadError(`${where} is no OTLP/JSON traces document: ${problem}`);
  return doc as OtlpDocument;
}

/** The agent's spans in `path`, in file order. */
export async function readAgentSpans(path: string): Promise<AgentSpan[]> {
  const spans: AgentSpan[] = [];
  let n = 0;
  let parsed = 0;
  try {
    for await (const line of textLines(path)) {
      n += 1;
      if (line.trim() === "") continue;
      let doc: unknown;
      try {
        doc = JSON.parse(line);
      } catch {
        // A document spread over lines (pretty-printed) is read whole.
        if (parsed === 0) return await wholeDocument(path);
        throw new LogReadError(`${path}, line ${n}, is not JSON: ${describeJsonSyntaxError(line)}`);
      }
      parsed += 1;
      spansOf(checked(doc, `${path}, line ${n},`), spans);
    }
  } catch (e) {
    if (e instanceof LogReadError) throw e;
    throw new LogReadError(`reading ${path}: ${osErrorText(e)}`);
  }
  return spans;
}

async function wholeDocument(path: string): Promise<AgentSpan[]> {
  const text = await readFile(path, "utf8");
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new LogReadError(`${path} is not OTLP/JSON (one traces document per line, or one document): ${describeJsonSyntaxError(text)}`);
  }
  const spans: AgentSpan[] = [];
  spansOf(checked(doc, path), spans);
  return spans;
}
