import assert from "node:assert/strict";
import { resolveApiKey } from "../../lib/oracle/index.js";

/** A file system holding only `files`; any other path is missing, as Node says it. */
const files =
  (contents: Record<string, string>) =>
  (path: string): string => {
    if (Object.hasOwn(contents, path)) return contents[path]!;
    throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: "ENOENT" });
  };

describe("the Jev key", () => {
  it("comes from TYPESAFE_API_KEY first", () => {
    assert.deepEqual(resolveApiKey({ TYPESAFE_API_KEY: "sk-1", TYPESAFE_API_KEY_FILE: "/k" }, files({ "/k": "sk-2" })), {
      key: "sk-1",
    });
  });

  it("else from the file TYPESAFE_API_KEY_FILE names, trimmed, ~ expanded", () => {
    assert.deepEqual(resolveApiKey({ TYPESAFE_API_KEY_FILE: "/k" }, files({ "/k": "  sk-2\n" })), { key: "sk-2" });
    assert.deepEqual(resolveApiKey({ TYPESAFE_API_KEY: " ", TYPESAFE_API_KEY_FILE: "/k" }, files({ "/k": "sk-2" })), {
      key: "sk-2",
    });
    assert.deepEqual(resolveApiKey({ HOME: "/home/u", TYPESAFE_API_KEY_FILE: "~/.typesafe" }, files({ "/home/u/.typesafe": "sk-3" })), {
      key: "sk-3",
    });
  });

  it("is missing with a reason that never shows a key", () => {
    assert.deepEqual(resolveApiKey({}, files({})), { missing: "TYPESAFE_API_KEY is not set" });
    assert.deepEqual(resolveApiKey({ TYPESAFE_API_KEY: "", TYPESAFE_API_KEY_FILE: "" }, files({})), {
      missing: "TYPESAFE_API_KEY is not set",
    });
    assert.deepEqual(resolveApiKey({ TYPESAFE_API_KEY_FILE: "/nope" }, files({})), {
      missing: "reading TYPESAFE_API_KEY_FILE /nope: No such file or directory (os error 2)",
    });
    assert.deepEqual(resolveApiKey({ TYPESAFE_API_KEY_FILE: "/k" }, files({ "/k": " \n" })), {
      missing: "TYPESAFE_API_KEY_FILE /k is empty",
    });
  });
});
