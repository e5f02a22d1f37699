#!/usr/bin/env node
/**
 * `stretto-procedure`: runs a compiled procedure on a ticket against a stdio MCP server,
 * with no model, and prints the run. Exit codes: 0 when the run finished (whatever the
 * verdict), 1 for any error of the run, 2 for a usage error.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import { one, parseCommandLine } from "./args.js";
import { procedureCommand } from "./procedure-options.js";
import { EXIT_USAGE } from "./report.js";
import { ProcedureError } from "../procedure/error.js";
import { loadProcedure } from "../procedure/load.js";
import { McpStdioClient } from "../procedure/mcp-client.js";
import { runJson, runSummary } from "../procedure/output.js";
import { runProcedure, type Run } from "../procedure/run.js";
import { osErrorText } from "../util/os-errors.js";
import { errorText } from "../util/error-text.js";

const EXIT_FAILED = 1;

// A reader that closed the pipe (`stretto-procedure … | head`) has what it wanted.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") return;
  throw e;
});

async function main(argv: string[]): Promise<number> {
  const outcome = parseCommandLine(procedureCommand, argv);
  if (outcome.kind === "help" || outcome.kind === "version") {
    process.stdout.write(outcome.text);
    return 0;
  }
  if (outcome.kind === "usage-error") {
    process.stderr.write(outcome.text);
    return EXIT_USAGE;
  }
  const args = outcome.args;
  try {
    const procedure = loadProcedure(one<string>(args, "procedure")!);
    const ticket = readTicket(one<string>(args, "ticket"), one<string>(args, "ticket-file"));
    const timeout = one<number>(args, "timeout");
    const client = await McpStdioClient.start(args.trailing, { timeoutMs: timeout === undefined ? undefined : timeout * 1000 });
    const stopOnSignal = (signal: NodeJS.Signals) => {
      // Leave no server behind when we are stopped mid-run.
      void client.shutdown().finally(() => process.exit(128 + (constants.signals[signal] ?? 0)));
    };
    for (const s of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(s, stopOnSignal);
    let run: Run;
    try {
      run = await runProcedure(procedure, ticket, client);
    } finally {
      await client.shutdown();
    }
    writeRun(run, one<string>(args, "out"));
    process.stderr.write(runSummary(run));
    return 0;
  } catch (err) {
    if (!(err instanceof ProcedureError)) throw err;
    process.stderr.write(err.report());
    return EXIT_FAILED;
  }
}

function readTicket(text: string | undefined, file: string | undefined): string {
  if (text !== undefined) return text;
  if (file === undefined) throw new ProcedureError("give the ticket with --ticket or --ticket-file");
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new ProcedureError(`reading ${file}`, osErrorText(err));
  }
}

function writeRun(run: Run, out: string | undefined): void {
  const text = runJson(run);
  if (out === undefined) {
    process.stdout.write(text);
    return;
  }
  try {
    writeFileSync(out, text);
  } catch (err) {
    throw new ProcedureError(`writing ${out}`, osErrorText(err));
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // exitCode, not exit(): let stdout finish writing to a pipe first.
    process.exitCode = code;
    // The signal handlers above must not keep a finished run waiting.
    for (const s of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.removeAllListeners(s);
  },
  (err: unknown) => {
    process.stderr.write(`Error: ${errorText(err)}\n`);
    process.exitCode = EXIT_FAILED;
  },
);
