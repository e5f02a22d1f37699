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
      long: "oracle-cache",
      value: "DIR",
      heading: "The System-One model",
      defaultText: "~/.stretto/oracle-cache",
      help: "Where the model's answers are cached (pruned by --retain-days)",
    },
  ],
  trailing: { name: "<SERVER_COMMAND>", help: "The MCP server to run, and its arguments" },
};
