/** `stretto-procedure`'s command line: its help and its shell completions are made from this table. */
import { InvalidValue, type CommandSpec } from "./args.js";
import { VERSION } from "../version.js";

/** Seconds, possibly fractional, and more than zero. */
function seconds(raw: string): number {
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(n > 0)) throw new InvalidValue("expected a number of seconds greater than 0");
  return n;
}

export const procedureCommand: CommandSpec = {
  name: "stretto-procedure",
  version: VERSION,
  about: "Run a compiled procedure on a ticket against an MCP server (stdio), with no model.",
  usage: "Usage: stretto-procedure [OPTIONS] --procedure <FILE> -- <SERVER>...",
  options: [
    { long: "procedure", value: "FILE", heading: "The run", help: "The procedure (JSON, stretto_procedure 1)" },
    { long: "ticket", value: "TEXT", heading: "The run", conflicts: ["ticket-file"], help: "The ticket, as text" },
    {
      long: "ticket-file",
      value: "FILE",
      heading: "The run",
      conflicts: ["ticket"],
      help: "The ticket, read whole from FILE (a trailing newline stays part of it)",
    },
    { long: "out", value: "FILE", heading: "The run", help: "Write the run to FILE instead of stdout" },
    {
      long: "timeout",
      value: "SECONDS",
      heading: "The server",
      parse: seconds,
      help: "Give up when the server takes longer than this to answer one request [default: no limit]",
    },
  ],
  trailing: { name: "<SERVER>", help: "The stdio MCP server to run it against: its command and arguments" },
  check: (args) =>
    args.values.has("procedure")
      ? undefined
      : "the following required arguments were not provided:\n  --procedure <FILE>",
};
