/**
 * The flow file's validator that the build generates ahead of time (ajv's standalone code,
 * scripts/precompile-validators.ts) against the one ajv compiles from the schema at run time:
 * the build made it from this schema, and it gives the same verdict and the same errors on
 * the fixtures' flows and on any one change to them (a field removed, a value of another type).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { compileFlowValidator, flowSchemaHash, flowValidator, precompiledFlowValidator } from "../../lib/flow/ir/flow-schema.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const FLOWS = ["fixtures/console/shop.flow.json", "fixtures/console/shop.promoted.flow.json"].map((p) => JSON.parse(readFileSync(p, "utf8")) as Json);

/** Every path into `v` (object keys and array indices), up to `depth` steps. */
function pathsOf(v: Json, depth: number, at: (string | number)[] = []): (string | number)[][] {
  if (depth === 0 || v === null || typeof v !== "object") return [];
  const keys: (string | number)[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
  return keys.flatMap((k) => {
    const here = [...at, k];
    const child = Array.isArray(v) ? v[k as number]! : (v as Record<string, Json>)[k as string]!;
    return [here, ...pathsOf(child, depth - 1, here)];
  });
}

/** `v` with the value at `path` removed (`undefined`) or replaced. */
function changed(v: Json, path: readonly (string | number)[], to: Json | undefined): Json {
  const copy = structuredClone(v);
  let parent = copy as Record<string | number, Json>;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  if (to !== undefined) parent[last] = to;
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}

describe("flow: the validator precompiled at build time", () => {
  const precompiled = precompiledFlowValidator();
  const compiled = compileFlowValidator();

  it("is built from this schema and is the one the loader uses", () => {
    assert.equal(typeof precompiled, "function", "the build wrote no validator for this schema: run `make build` (or `node dist/scripts/precompile-validators.js` after tsc)");
    assert.equal((precompiled as unknown as { schemaHash: string }).schemaHash, flowSchemaHash());
    assert.equal(flowValidator(), precompiled);
  });

  it("gives the verdict and the errors the schema compiled at run time gives, for any one change to a flow", () => {
    const verdict = (validate: typeof compiled, data: Json) => ({ ok: validate(data), errors: validate.errors ?? null });
    for (const flow of FLOWS) assert.deepEqual(verdict(precompiled!, flow), { ok: true, errors: null });
    const paths = FLOWS.map((f) => pathsOf(f, 5));
    const value: fc.Arbitrary<Json | undefined> = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom<Json>(null, true, -1, 0.5, 4294967296, "", "x", [], {}, [1, "a"], { a: 1 }),
    );
    fc.assert(
      fc.property(fc.nat(), fc.nat(), value, (f, p, to) => {
        const flow = FLOWS[f % FLOWS.length]!;
        const all = paths[f % FLOWS.length]!;
        const data = changed(flow, all[p % all.length]!, to);
        assert.deepEqual(verdict(precompiled!, data), verdict(compiled, data));
      }),
      { numRuns: 400 },
    );
  });
});
