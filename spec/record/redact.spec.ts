import assert from "node:assert/strict";
import { redactCommand, redactUrl } from "../../lib/record/redact.js";

describe("credential redaction in the log header", () => {
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

describe("credential redaction: forms an earlier build kept in the log header", () => {
  it("drops the userinfo of connection strings and any other URL, wherever it stands", () => {
    assert.deepEqual(
      redactCommand([
        "npx", "-y", "@modelcontextprotocol/server-postgres", "postgresql://user:PASSWORD@db.example.com:5432/shop",
        "mongodb+srv://u:PASSWORD@cluster0.example.net/db?retryWrites=true&w=majority", "redis://:PASSWORD@cache:6379/0",
        "https://u:PASSWORD@example.com/x", "https://ghp_TOKEN@github.com/org/repo.git", "--db=mysql://root:PASSWORD@localhost/db",
        "DATABASE_URL=postgresql://user:PASSWORD@h/db",
      ]),
      [
        "npx", "-y", "@modelcontextprotocol/server-postgres", "postgresql://db.example.com:5432/shop",
        "mongodb+srv://cluster0.example.net/db?retryWrites=true&w=majority", "redis://cache:6379/0",
        "https://example.com/x", "https://github.com/org/repo.git", "--db=mysql://localhost/db",
        "DATABASE_URL=postgresql://h/db",
      ],
    );
    // A password holding an unescaped `/`, `@` or `:` is still taken for one.
    assert.deepEqual(redactCommand(["postgresql://user:pa/ss@host/db", "redis://u:p@ss:w@host"]), ["postgresql://host/db", "redis://host"]);
  });

  it("redacts secret query parameters in any position, the new short names exactly", () => {
    assert.deepEqual(redactCommand(["https://example.com/mcp?region=eu&access_token=SECRET1&x=1&api_key=SECRET2"]), [
      "https://example.com/mcp?region=eu&access_token=<redacted>&x=1&api_key=<redacted>",
    ]);
    assert.equal(
      redactUrl("https://example.com/mcp?region=eu&sig=SECRET1&X-Amz-Signature=SECRET2&jwt=SECRET3&code=SECRET4&session=SECRET5"),
      "https://example.com/mcp?region=eu&sig=<redacted>&X-Amz-Signature=<redacted>&jwt=<redacted>&code=<redacted>&session=<redacted>",
    );
    assert.equal(redactUrl("https://app.example.com/cb#access_token=SECRET&state=1"), "https://app.example.com/cb#access_token=<redacted>&state=1");
    assert.equal(redactUrl("jdbc:sqlserver://db:1433;user=sa;password=SECRET"), "jdbc:sqlserver://db:1433;user=sa;password=<redacted>");
  });

  it("keeps parameters that only contain a short name", () => {
    const kept = "https://example.com/a?encoding=utf-8&zipcode=1&error_code=2&sessions=3&signal=4#top";
    assert.equal(redactUrl(kept), kept);
    const words = ["--encoding=utf8", "--code-dir", "./src", "--session-name", "main", "--passive", "x", "--port", "8080"];
    assert.deepEqual(redactCommand(words), words);
  });

  it("redacts header forms whose name names a secret", () => {
    assert.deepEqual(redactCommand(["--header", "X-API-Key: SECRET", "-H", "x-api-key:SECRET", "Cookie: sid=SECRET; theme=dark", "Accept: text/plain"]), [
      "--header", "X-API-Key: <redacted>", "-H", "x-api-key:<redacted>", "Cookie: <redacted>", "Accept: text/plain",
    ]);
    assert.deepEqual(redactCommand(["--header=X-Auth-Token: SECRET"]), ["--header=X-Auth-Token: <redacted>"]);
    assert.deepEqual(redactCommand(["X-API-Key:", "SECRET"]), ["X-API-Key:", "<redacted>"]);
  });

  it("redacts --pass, --password and -p values, given apart or with `=`", () => {
    assert.deepEqual(redactCommand(["--pass", "SECRET", "--pass=SECRET", "--password", "SECRET", "-p", "SECRET", "DB_PASS=SECRET", "MYSQL_PWD=SECRET"]), [
      "--pass", "<redacted>", "--pass=<redacted>", "--password", "<redacted>", "-p", "<redacted>", "DB_PASS=<redacted>", "MYSQL_PWD=<redacted>",
    ]);
  });

  it("redacts secret-named keys of JSON arguments at any depth, and writes the rest compactly", () => {
    assert.deepEqual(redactCommand(['{"apiKey": "SECRET", "db": {"host": "db", "password": "SECRET"}, "retries": 3}']), [
      '{"apiKey":"<redacted>","db":{"host":"db","password":"<redacted>"},"retries":3}',
    ]);
    assert.deepEqual(redactCommand(['--config={"auth":{"user":"u","pw":"SECRET"},"url":"postgres://u:SECRET@h/db","args":["--token","SECRET"]}']), [
      '--config={"auth":"<redacted>","url":"postgres://h/db","args":["--token","<redacted>"]}',
    ]);
    // Not JSON, but close: the value after a secret-named key.
    assert.deepEqual(redactCommand(["{apiKey: 'SECRET', region: 'eu'}"]), ['{apiKey: "<redacted>", region: \'eu\'}']);
  });

  it("reads connection strings and shell words inside one argument", () => {
    assert.deepEqual(
      redactCommand([
        "Server=db;User Id=sa;Password=My Pass;Timeout=5",
        "host=db user=me password=SECRET dbname=shop",
        "sh", "-c", "exec server --api-key 'SECRET 1' --url https://u:SECRET@h/?token=SECRET&a=b; echo done",
      ]),
      [
        "Server=db;User Id=sa;Password=<redacted>;Timeout=5",
        "host=db user=me password=<redacted> dbname=shop",
        "sh", "-c", "exec server --api-key '<redacted>' --url https://h/?token=<redacted>&a=b; echo done",
      ],
    );
  });
});
