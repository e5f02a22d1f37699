/**
 * What an HTTP header name may be made of (RFC 9110 `token`) is written once in lib/, and
 * both the `--upstream-header` names and the `x-mcp-header` names of 2026-07-28 tools are
 * checked against it.
 */
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TOKEN, resolveUpstreamHeaders } from "../../lib/transport/http/headers.js";
import { ParamHeaders } from "../../lib/transport/http/param-headers.js";
import { ROOT } from "../helpers/processes.js";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("http upstream: the header-name token", function () {
  it("is defined once in lib/", () => {
    const pattern = TOKEN.source;
    const defining = sources(join(ROOT, "lib")).filter((f) => readFileSync(f, "utf8").includes(`/${pattern}/`));
    assert.deepEqual(defining.map((f) => f.slice(ROOT.length + 1)), ["lib/transport/http/headers.ts"]);
  });

  it("decides both `--upstream-header` names and `x-mcp-header` names", () => {
    for (const name of ["X-Region", "a!#$%&'*+-.^_`|~9", "bad name", "bad:name", "é"]) {
      let header = true;
      try {
        resolveUpstreamHeaders([`${name}=V`], { V: "v" });
      } catch {
        header = false;
      }
      const params = new ParamHeaders();
      params.learn({
        result: { tools: [{ name: "t", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": name } } } }] },
      });
      const mirrored = [...params.headersFor("t", { a: "x" })].length === 1;
      assert.equal(header, TOKEN.test(name), name);
      assert.equal(mirrored, header, name);
    }
  });
});
