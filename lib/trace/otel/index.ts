/** OpenTelemetry traces (OTLP/JSON, GenAI and MCP semantic conventions) read as Episodes (docs/otel.md). */
import type { Episode } from "../episode-types.js";
import { otelEpisodes } from "./otel-episodes.js";
import { readAgentSpans } from "./otel-spans.js";

export { OTEL_CONVENTIONS, otelEpisodes } from "./otel-episodes.js";
export { readAgentSpans, type AgentSpan } from "./otel-spans.js";
export { otlpProblem, otlpTracesSchema } from "./otlp-schema.js";

/** The episodes of the OTLP/JSON file at `path`, each given `domain`. */
export async function readOtelEpisodes(path: string, domain: string): Promise<Episode[]> {
  return otelEpisodes(await readAgentSpans(path), domain);
}
