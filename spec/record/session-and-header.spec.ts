import assert from "node:assert/strict";
import { hostSession, logHeader } from "../../lib/record/log-header.js";
import { sessionId } from "../../lib/record/session-id.js";

describe("session ids and the log header", () => {
  it("names a session by its UTC start time to the millisecond and the proxy's pid", () => {
    const vectors: Array<[number, number, string]> = [
      [0, 1, "19700101T000000.000Z-1"],
      [951782400000, 42, "20000229T000000.000Z-42"],
      [1709251199999, 7, "20240229T235959.999Z-7"],
      [1790198400123, 4242, "20260923T212000.123Z-4242"],
      [4107542399000, 7, "21000228T235959.000Z-7"],
    ];
    for (const [ms, pid, id] of vectors) assert.equal(sessionId(ms, pid), id);
  });

  it("writes the header's keys in the documented order, omitting absent optional ones", () => {
    const base = { session: "20260923T212000.123Z-4242", startedUnixMs: 1790198400123, serverCommand: ["npx", "-y", "some-mcp-server"] };
    assert.equal(
      JSON.stringify(logHeader({ ...base, domain: "orders", hostSession: "host-4211" })),
      '{"stretto_mcp_log":2,"session":"20260923T212000.123Z-4242","started_unix_ms":1790198400123,"server_command":["npx","-y","some-mcp-server"],"domain":"orders","agent_model":null,"host_session":"host-4211"}',
    );
    assert.equal(
      JSON.stringify(logHeader({ ...base, agentModel: "glm-5", serverName: "shop" })),
      '{"stretto_mcp_log":2,"session":"20260923T212000.123Z-4242","started_unix_ms":1790198400123,"server_command":["npx","-y","some-mcp-server"],"domain":null,"agent_model":"glm-5","server_name":"shop"}',
    );
  });

  it("takes the host session from STRETTO_SESSION, else the parent's pid; empty counts as unset", () => {
    assert.equal(hostSession({ STRETTO_SESSION: "task-7" }, 99), "task-7");
    assert.equal(hostSession({ STRETTO_SESSION: "" }, 99), "host-99");
    assert.equal(hostSession({}, 4211), "host-4211");
  });
});
