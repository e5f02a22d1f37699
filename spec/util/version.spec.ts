import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { VERSION } from "../../lib/version.js";

describe("VERSION", () => {
  it("is package.json's version, the one every binary prints", () => {
    // dist/spec/util/ → the repository's package.json
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };
    assert.equal(VERSION, pkg.version);
  });
});
