/**
 * docs/flow-review.md shows `stretto flow-show` of the published flow; this keeps it what the
 * binary prints, so the maintainer notes never show a layout the command no longer has.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURE_PATH, requireFixture } from "../flow/flow-fixture.js";
import { ROOT } from "../helpers/processes.js";
import { stretto } from "./review-helpers.js";

describe("docs/flow-review.md's example", function () {
  before(function () {
    requireFixture(this);
  });

  it("is what stretto flow-show prints for the published flow", async () => {
    const doc = readFileSync(join(ROOT, "docs/flow-review.md"), "utf8");
    const begin = doc.indexOf("<!-- flow-show: begin -->\n````markdown\n");
    const end = doc.indexOf("````\n<!-- flow-show: end -->");
    assert.ok(begin !== -1 && end > begin, "the example's markers are missing");
    const shown = doc.slice(begin + "<!-- flow-show: begin -->\n````markdown\n".length, end);
    const r = await stretto("flow-show", FIXTURE_PATH);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(shown, r.stdout);
  });
});
