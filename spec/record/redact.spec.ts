import assert from "node:assert/strict";
import { redactCommand, redactUrl } from "../../lib/record/redact.js";

describe("credential redaction in the log header (facts-proxy-core §3.7–3.8)", () => {
  it("redacts the values of credential-looking arguments in the server command", () => {
    const command = [
      "npx", "-y", "some-mcp-server", "--api-key", "sk-123", "--token=abc", "GITHUB_TOKEN=ghp_456",
      "--header", "Authorization: Bearer xyz", "--no-auth", "--port", "8080",
      "https://example.com/mcp?access_token=789",
    ];
    assert.deepEqual(redactCommand(command), [
      "npx", "-y", "some-mcp-server", "--api-key", "<redacted>", "--token=<redacted>", "GITHUB_TOKEN=<redacted>",
      "--header", "<redacted>", "--no-auth", "--port", "8080",
      "https://example.com/mcp?access_token=<redacted>",
    ]);
  });

  it("keeps a secret flag's next word when it is another flag", () => {
    assert.deepEqual(redactCommand(["--password", "--verbose", "x"]), ["--password", "--verbose", "x"]);
    assert.deepEqual(redactCommand(["--secret", "s", "plain"]), ["--secret", "<redacted>", "plain"]);
  });

  it("hides the user, the password and secret-looking query values of an upstream URL", () => {
    const vectors: Array<[string, string]> = [
      ["https://me:pa55@example.com:8443/mcp?token=abc&region=eu#x", "https://example.com:8443/mcp?token=<redacted>&region=eu#x"],
      ["http://127.0.0.1:9/mcp", "http://127.0.0.1:9/mcp"],
      ["https://example.com", "https://example.com"],
      ["example.com/mcp?api_key=1", "example.com/mcp?api_key=<redacted>"],
      ["https://example.com/mcp?flag&Auth=x", "https://example.com/mcp?flag&Auth=<redacted>"],
    ];
    for (const [url, want] of vectors) assert.equal(redactUrl(url), want, url);
  });
});
