/**
 * The files `stretto learn` reads besides the sessions: `--manifest` (a tool manifest as
 * `stretto manifest` prints it) and `--rewards` (session id → reward in [0, 1]). Each is
 * checked against its schema; a problem is one line naming the file.
 */
import { readFile } from "node:fs/promises";
import { Ajv, type ValidateFunction } from "ajv";
import { isToolManifest, type ToolManifest } from "../../trace/index.js";
import { osErrorText } from "../../util/os-errors.js";
import { describeJsonSyntaxError } from "../../util/json-syntax-error.js";
import { LearnError } from "../../learn/index.js";

export const rewardsSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "Rewards",
  description: "Each session's reward: 1 is a success; a session not listed counts as one.",
  type: "object",
  additionalProperties: { type: "number", minimum: 0, maximum: 1 },
} as const;

let rewardsValidator: ValidateFunction | undefined;

async function readJson(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    throw new LearnError(`reading ${what} ${path}: ${osErrorText(e)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new LearnError(`${what} ${path} is not JSON: ${describeJsonSyntaxError(text)}`);
  }
}

export async function readRewards(path: string): Promise<Map<string, number>> {
  const doc = await readJson(path, "the rewards file");
  rewardsValidator ??= new Ajv({ strict: true }).compile(rewardsSchema);
  if (!rewardsValidator(doc)) {
    const e = rewardsValidator.errors![0]!;
    const where = e.instancePath === "" ? "" : ` at ${e.instancePath}`;
    throw new LearnError(`the rewards file ${path} must map session ids to rewards in [0, 1]: ${e.message ?? "invalid"}${where}`);
  }
  return new Map(Object.entries(doc as Record<string, number>));
}

export async function readManifestFile(path: string): Promise<ToolManifest> {
  const doc = await readJson(path, "the manifest");
  if (!isToolManifest(doc)) {
    throw new LearnError(`the manifest ${path} is not a tool manifest ({"domain", "tools", "docs"} as stretto manifest prints it)`);
  }
  return doc;
}
