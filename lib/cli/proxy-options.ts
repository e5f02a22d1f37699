import { unsignedInteger, type CommandSpec } from "./args.js";
import { upstreamUsageProblem } from "./upstream-usage.js";
import { recordDir } from "./record-dir.js";
import { contextPath } from "./context-path.js";
import { VERSION } from "../version.js";
import { deciderName, float, oracleKind, surprise, unsigned64 } from "./flow-values.js";

/** `stretto-proxy`'s command line. Options arrive here as the features that use them land. */
export const proxyCommand: CommandSpec = {
  name: "stretto-proxy",
  version: VERSION,
  about:
    "A stdio MCP proxy: forwards every line between the host and the server byte for byte, and records each session with --record.",
  usage: "Usage: stretto-proxy [OPTIONS] [-- <SERVER_COMMAND>...]",
  options: [
    {
      long: "record",
      value: "DIR",
      heading: "Recording",
      parse: recordDir,
      help: "Write one log per session to DIR/<session>.jsonl (DIR is created; a leading ~ is expanded)",
    },
    { long: "domain", value: "NAME", heading: "Recording", help: "Copied to the log header's domain" },
    {
      long: "agent-model",
      value: "MODEL",
      heading: "Recording",
      help: "Copied to the log header's agent_model: the model driving the agent, if you know it",
    },
    {
      long: "server-name",
      value: "NAME",
      heading: "Recording",
      help: "Copied to the log header's server_name, so one host session's servers can be told apart",
    },
    {
      long: "retain-days",
      value: "DAYS",
      heading: "Recording",
      parse: unsignedInteger,
      help: "At start, delete the proxy's own logs in --record and answers in --oracle-cache older than DAYS days",
    },
    {
      long: "guards",
      heading: "Writes",
      help: "Check each of the agent's calls against the policy guards of --domain (retail or airline) before the server sees it",
    },
    {
      long: "commit",
      heading: "Writes",
      help: "Add stretto_commit to the server's tools: confirmed writes in one call, in order, each checked by the guards",
    },
    {
      long: "context",
      value: "FILE",
      heading: "The conversation",
      parse: contextPath,
      help: "A JSONL file the host appends the conversation to ({\"role\", \"content\"}); logged before each tool call ({session} and ~ expanded)",
    },
    {
      long: "plugin",
      value: "MODULE",
      repeatable: true,
      heading: "Active mode",
      help: "Load a plugin (a path or a package whose default export is a PluginFactory); repeatable",
    },
    { long: "flow", value: "FILE", heading: "Flows", help: "Run this flow after each of the agent's calls, making its lookups and appending them to the agent's result" },
    {
      long: "flow-threshold",
      value: "P",
      requires: ["flow"],
      heading: "Flows",
      parse: float,
      defaultText: "0.3",
      help: "The probability a lookup must reach (the tool's, times its binding's chance)",
    },
    {
      long: "flow-decider",
      value: "FLOW_DECIDER",
      requires: ["flow"],
      heading: "Flows",
      parse: deciderName,
      help: "Where a lookup's probability comes from: arbiter, habit or reach (default: the flow's arbiter, else reach)",
    },
    { long: "flow-surprise", value: "off|NATS", heading: "Flows", parse: surprise, requires: ["flow"], help: "The surprise gate: off serves the flow without its gate; NATS sets its threshold (keeping its window, else 5)" },
    { long: "flow-per-call", value: "N", requires: ["flow"], heading: "Flows", parse: unsignedInteger, defaultText: "8", help: "The most lookups appended to one result" },
    { long: "flow-per-session", value: "N", requires: ["flow"], heading: "Flows", parse: unsignedInteger, defaultText: "40", help: "The most lookups in a session" },
    { long: "flow-questions", value: "N", requires: ["flow"], heading: "Flows", parse: unsignedInteger, defaultText: "300", help: "The most questions to the System-One model in a session" },
    { long: "flow-log", value: "FILE", requires: ["flow"], heading: "Flows", help: "Append the flow's decisions and runs here (default <session>.flow.jsonl beside the session log; {session} and ~ expanded)" },
    {
      long: "flow-tools",
      value: "TOOLS",
      repeatable: true,
      requires: ["flow"],
      heading: "Flows",
      help: "The only tools the flow may look up on its own (comma-separated or repeated)",
    },
    { long: "flow-shadow", requires: ["flow"], heading: "Flows", help: "Decide and log what the flow would look up, but look nothing up" },
    {
      long: "flow-explore",
      value: "EPSILON",
      requires: ["flow"],
      heading: "Flows",
      parse: float,
      help: "With this probability take another lookup than the rule's, and log each decision's policy",
    },
    {
      long: "flow-explore-seed",
      value: "N",
      requires: ["flow-explore"],
      heading: "Flows",
      parse: unsigned64,
      defaultText: "0",
      help: "Seeds --flow-explore's draws",
    },
    { long: "task-id", value: "ID", requires: ["flow"], heading: "Flows", help: "Picks the flow's fold and feeds exploration's draws (default: the session)" },
    {
      long: "oracle",
      value: "ORACLE",
      heading: "The System-One model",
      parse: oracleKind,
      defaultText: "jev",
      help: "Who answers the flow's questions: jev (needs TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE), replay (the cache only) or mock",
    },
    {
      long: "oracle-cache",
      value: "DIR",
      heading: "The System-One model",
      defaultText: "~/.stretto/oracle-cache",
      help: "Where the model's answers are cached (pruned by --retain-days)",
    },
    {
      long: "upstream",
      value: "URL",
      heading: "The server",
      help: "Proxy a Streamable HTTP server at URL instead of running a command",
    },
    {
      long: "upstream-header",
      value: "NAME=VAR",
      repeatable: true,
      requires: ["upstream"],
      heading: "The server",
      help: "Send header NAME on every request to --upstream, its value taken from environment variable VAR (never logged); repeatable",
    },
  ],
  trailing: {
    name: "<SERVER_COMMAND>",
    help: "The MCP server to run, and its arguments",
    requiredUnless: "upstream",
    conflicts: "upstream",
  },
  check: upstreamUsageProblem,
};
