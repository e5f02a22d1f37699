/**
 * The `stretto` command table loads each command only when it runs: an entry's name must be
 * the name of the command it loads, or `stretto <name>` would run another command.
 */
import assert from "node:assert/strict";
import { COMMANDS } from "../../lib/cli/stretto/commands.js";

describe("the stretto command table", () => {
  it("names each command as the command it loads names itself, once", async () => {
    const names = COMMANDS.map((c) => c.name);
    assert.equal(new Set(names).size, names.length, `a name listed twice: ${names.join(", ")}`);
    for (const entry of COMMANDS) assert.equal((await entry.load()).name, entry.name);
  });
});
