/**
 * Loading a flow file. The checks run in this order, so a file with several faults is
 * reported with the same message whichever implementation of the proxy loads it (docs/flows.md,
 * "Flow files", lists the messages):
 *
 * 1. `stretto_flow` must read as a u32: `not a stretto flow: …`;
 * 2. it must be 1 or 2: `flow format {v} is not supported (this build reads 1 and 2)`;
 * 3. the whole file must have every required field with its type (the schema);
 * 4. a version 1 flow may have no per-site thresholds;
 * 5. nor any version 2 binding field, nor a surprise gate (whose window must be 1 or more);
 * 6. its program (the standard one when absent) must compile: `the flow's program: …`.
 *
 * Every failure throws a FlowLoadError whose message is what follows
 * `stretto-proxy: loading <path>: ` on the proxy's stderr (exit 125).
 */
import { readFileSync } from "node:fs";
import { osErrorText } from "../../util/os-errors.js";
import { describeJsonSyntaxError } from "../../util/json-syntax-error.js";
import { checkProgram } from "../program/compile-program.js";
import { parseProgram } from "../program/parse-program.js";
import { standardProgram } from "../program/standard-program.js";
import type { Program } from "../program/program-types.js";
import type { FlowJson } from "./flow-json.js";
import { describeSchemaError, flowValidator } from "./flow-schema.js";
import { FLOW_VERSIONS, type Flow, type FlowVersion } from "./flow-types.js";
import { normalizeFlow } from "./normalize-flow.js";
import { errorText } from "../../util/error-text.js";

/** Why a flow did not load; the message is the part after `loading <path>: `. */
export class FlowLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FlowLoadError";
  }
}

export const THRESHOLDS_NEED_V2 = "a flow with per-site thresholds is format 2";
export const BINDINGS_NEED_V2 =
  "a flow with bindings scored where another value was named or the described record read, with sources ordered by site, with lists bound, with bare calls counted, or with constants, is format 2";

export const SURPRISE_NEEDS_V2 = "a flow with a surprise gate is format 2";
export const SURPRISE_WINDOW = "a surprise gate averages over one step or more";

/** Reads and loads the flow at `path`. A file that cannot be read says why, as the OS puts it. */
export function loadFlow(path: string): Flow {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new FlowLoadError(osErrorText(err));
  }
  return parseFlow(text);
}

/** Loads a flow from its JSON text. */
export function parseFlow(text: string): Flow {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    // V8's message quotes the text (a flow may hold secrets) and may span lines: name the place.
    throw new FlowLoadError(`not a stretto flow: ${describeJsonSyntaxError(text)}`);
  }
  return flowFromJson(doc);
}

/** Loads a flow from its parsed JSON value. */
export function flowFromJson(doc: unknown): Flow {
  const version = readVersion(doc);
  const validate = flowValidator();
  if (!validate(doc)) throw new FlowLoadError(describeSchemaError(validate.errors![0]!));
  const json = doc as FlowJson;
  const programGiven = json.program !== undefined;
  let program: Program;
  try {
    program = programGiven ? parseProgram(json.program) : standardProgram();
  } catch (err) {
    throw new FlowLoadError(`the flow's program: ${errorText(err)}`);
  }
  if (json.surprise !== undefined && json.surprise.window === 0) throw new FlowLoadError(SURPRISE_WINDOW);
  if (version === 1) {
    if (Object.keys(json.thresholds ?? {}).length > 0) throw new FlowLoadError(THRESHOLDS_NEED_V2);
    if (json.surprise !== undefined) throw new FlowLoadError(SURPRISE_NEEDS_V2);
    if (hasVersion2Bindings(json)) throw new FlowLoadError(BINDINGS_NEED_V2);
  }
  try {
    checkProgram(program);
  } catch (err) {
    throw new FlowLoadError(`the flow's program: ${errorText(err)}`);
  }
  return normalizeFlow(json, version, program, programGiven);
}

/** Whether any binding field of format 2 is non-empty. */
function hasVersion2Bindings(json: FlowJson): boolean {
  const b = json.bindings;
  const nonEmpty = (v: object | undefined) => v !== undefined && Object.keys(v).length > 0;
  return (
    nonEmpty(b.named_other) ||
    nonEmpty(b.described_read) ||
    nonEmpty(b.site_sources) ||
    nonEmpty(b.lists) ||
    nonEmpty(b.bare) ||
    nonEmpty(b.constants)
  );
}

/**
 * The format version a flow must declare first, read before anything else so a file of a
 * format this build does not read says so rather than listing missing fields. The messages
 * are serde's wording for the same faults, so they match other implementations' output.
 */
function readVersion(doc: unknown): FlowVersion {
  const fail = (why: string) => new FlowLoadError(`not a stretto flow: ${why}`);
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw fail(`invalid type: ${serdeKind(doc)}, expected a flow object`);
  }
  if (!("stretto_flow" in doc)) throw fail("missing field `stretto_flow`");
  const v = (doc as Record<string, unknown>)["stretto_flow"];
  if (typeof v !== "number") throw fail(`invalid type: ${serdeKind(v)}, expected u32`);
  if (!Number.isInteger(v)) throw fail(`invalid type: floating point \`${v}\`, expected u32`);
  if (v < 0 || v > 4294967295) throw fail(`invalid value: integer \`${v}\`, expected u32`);
  if (!(FLOW_VERSIONS as readonly number[]).includes(v)) {
    throw new FlowLoadError(`flow format ${v} is not supported (this build reads 1 and 2)`);
  }
  return v as FlowVersion;
}

/** How serde names a JSON value in `invalid type` errors. */
function serdeKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "sequence";
  switch (typeof v) {
    case "string":
      return `string ${JSON.stringify(v)}`;
    case "boolean":
      return `boolean \`${v}\``;
    case "object":
      return "map";
    case "number":
    case "bigint":
      return String(v);
    default:
      return typeof v;
  }
}
