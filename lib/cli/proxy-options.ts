import { unsignedInteger, type CommandSpec } from "./args.js";
import { VERSION } from "../version.js";

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
      help: "At start, delete .jsonl/.json files older than DAYS days from --record and --oracle-cache",
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
      help: "A JSONL file the host appends the conversation to ({\"role\", \"content\"}); logged before each tool call ({session} and ~ expanded)",
    },
    {
      long: "plugin",
      value: "MODULE",
      repeatable: true,
      heading: "Active mode",
      help: "Load a plugin (a path or a package whose default export is a PluginFactory); repeatable",
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
};
