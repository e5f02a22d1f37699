/** A domain names the server, a folder and a flow's file, so it stays a plain name. */
import assert from "node:assert/strict";
import { domainProblem, shellWord } from "../../lib/init/index.js";

describe("stretto init's checks of a word", () => {
  it("takes plain domains and refuses the rest", () => {
    for (const ok of ["notes", "orders-v2", "a.b_c", "_x", "9"]) assert.equal(domainProblem(ok), undefined, ok);
    for (const bad of ["", "../x", "a/b", ".hidden", "-x", "my notes", "é"]) {
      assert.equal(domainProblem(bad), `--domain ${JSON.stringify(bad)}: the domain names the server, a directory and a flow's file, so use letters, digits, \`-\`, \`_\` and \`.\``);
    }
  });

  it("quotes a word for the shell only when it must", () => {
    assert.equal(shellWord("~/x"), "~/x");
    assert.equal(shellWord("a=b,c@d%e+f:g"), "a=b,c@d%e+f:g");
    assert.equal(shellWord(""), "''");
    assert.equal(shellWord("$HOME"), "'$HOME'");
    assert.equal(shellWord("it's"), "'it'\\''s'");
  });
});
