/**
 * Writes the flow file's validator as ajv's standalone code beside the built schema
 * (dist/lib/flow/ir/flow-validator.precompiled.cjs), so `stretto-proxy --flow` does not
 * compile the schema at every start. The file carries the schema's fingerprint; a build
 * whose schema changed without this step compiles at run time instead (flow-schema.ts).
 *
 *   node dist/scripts/precompile-validators.js      (run by `make build` and `npm run build`)
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import { FLOW_AJV_OPTIONS, PRECOMPILED_FLOW_VALIDATOR, flowSchema, flowSchemaHash } from "../lib/flow/ir/flow-schema.js";

// A CommonJS module whose `default` is the function: Node hands the module itself to a default import.
const standaloneCode = standalone.default;
const here = dirname(fileURLToPath(import.meta.url));
const ajv = new Ajv({ ...FLOW_AJV_OPTIONS, code: { source: true } });
const code = standaloneCode(ajv, ajv.compile(flowSchema));
const out = join(here, "..", "lib", "flow", "ir", PRECOMPILED_FLOW_VALIDATOR);
writeFileSync(out, `${code}\nmodule.exports.schemaHash = ${JSON.stringify(flowSchemaHash())};\n`);
