import assert from "node:assert/strict";
import { parseCommandLine } from "../../lib/cli/args.js";
import { proxyCommand } from "../../lib/cli/proxy-options.js";
import { expandTilde } from "../../lib/util/tilde.js";

describe("the command line", () => {
  it("expands only a leading ~ component", () => {
    const env = { HOME: "/home/a" };
    assert.equal(expandTilde("~/.stretto/logs", env), "/home/a/.stretto/logs");
    assert.equal(expandTilde("~", env), "/home/a");
    assert.equal(expandTilde("logs/~", env), "logs/~");
    assert.equal(expandTilde("~other/logs", env), "~other/logs");
    assert.equal(expandTilde("~/x", {}), "~/x");
    assert.equal(expandTilde("~/x", { USERPROFILE: "C:\\Users\\a" }), "C:\\Users\\a/x");
  });

  it("takes everything after -- verbatim, flags included", () => {
    const r = parseCommandLine(proxyCommand, ["--record", "d", "--", "srv", "--record", "-x"]);
    assert.equal(r.kind, "run");
    if (r.kind === "run") {
      assert.deepEqual(r.args.trailing, ["srv", "--record", "-x"]);
      assert.deepEqual(r.args.values.get("record"), ["d"]);
    }
  });

  it("accepts --name=value", () => {
    const r = parseCommandLine(proxyCommand, ["--domain=shop", "--", "x"]);
    assert.ok(r.kind === "run" && r.args.values.get("domain")?.[0] === "shop");
  });

  const usageErrors: Array<[string[], string]> = [
    [["--bogus", "--", "x"], "error: unexpected argument '--bogus' found"],
    [["word", "--", "x"], "error: unexpected argument 'word' found"],
    [["--record"], "error: a value is required for '--record <DIR>' but none was supplied"],
    [["--retain-days", "-1", "--", "x"], "error: invalid value '-1' for '--retain-days <DAYS>': invalid digit found in string"],
    [["--retain-days", "1.5", "--", "x"], "error: invalid value '1.5' for '--retain-days <DAYS>': invalid digit found in string"],
    [["--domain", "a", "--domain", "b", "--", "x"], "error: the argument '--domain <NAME>' cannot be used multiple times"],
    [[], "error: the following required arguments were not provided: <SERVER_COMMAND>..."],
    [["--"], "error: the following required arguments were not provided: <SERVER_COMMAND>..."],
  ];
  for (const [argv, first] of usageErrors) {
    it(`refuses ${JSON.stringify(argv)} with a one-line reason and a hint`, () => {
      const r = parseCommandLine(proxyCommand, argv);
      assert.equal(r.kind, "usage-error");
      if (r.kind !== "usage-error") return;
      const lines = r.text.split("\n");
      assert.equal(lines[0], first);
      assert.equal(lines[2], "Usage: stretto-proxy [OPTIONS] [-- <SERVER_COMMAND>...]");
      assert.equal(lines[4], "For more information, try '--help'.");
    });
  }
});
