/**
 * Every `stretto` subcommand, in the order help lists them. Each command's module is loaded only
 * when it is needed, so `stretto learn` starts without loading the other commands (and their
 * libraries). A new command is a file and a line here.
 */
import type { Command } from "./command.js";

/** A command by name, and how to load it. */
export interface CommandEntry {
  readonly name: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: "episode", load: async () => (await import("./episode.js")).episodeCommand },
  { name: "episodes", load: async () => (await import("./episodes.js")).episodesCommand },
  { name: "manifest", load: async () => (await import("./manifest.js")).manifestCommand },
  { name: "replay", load: async () => (await import("./replay.js")).replayCommand },
  { name: "guards", load: async () => (await import("./guards.js")).guardsCommand },
  { name: "confirm", load: async () => (await import("./confirm.js")).confirmCommand },
  { name: "redact", load: async () => (await import("./redact.js")).redactCommand },
  { name: "learn", load: async () => (await import("./learn.js")).learnCommand },
  { name: "promote", load: async () => (await import("./promote.js")).promoteCommand },
  { name: "evaluate", load: async () => (await import("./evaluate.js")).evaluateCommand },
  { name: "flow-show", load: async () => (await import("./flow-show.js")).flowShowCommand },
  { name: "flow-diff", load: async () => (await import("./flow-diff.js")).flowDiffCommand },
  { name: "audit", load: async () => (await import("./audit.js")).auditCommand },
  { name: "drift", load: async () => (await import("./drift.js")).driftCommand },
  { name: "stage", load: async () => (await import("./stage.js")).stageCommand },
  { name: "flow-commit", load: async () => (await import("./flow-commit.js")).flowCommitCommand },
  { name: "flow-rollback", load: async () => (await import("./flow-rollback.js")).flowRollbackCommand },
  { name: "flow-log", load: async () => (await import("./flow-log.js")).flowLogCommand },
  { name: "export-answers", load: async () => (await import("./export-answers.js")).exportAnswersCommand },
  { name: "import-answers", load: async () => (await import("./import-answers.js")).importAnswersCommand },
  { name: "export-arbiter", load: async () => (await import("./export-arbiter.js")).exportArbiterCommand },
  { name: "init", load: async () => (await import("./init.js")).initCommand },
  { name: "doctor", load: async () => (await import("./doctor.js")).doctorCommand },
  { name: "console", load: async () => (await import("./console.js")).consoleCommand },
  { name: "completions", load: async () => (await import("./completions.js")).completionsCommand(loadCommands) },
];

/** Every command, loaded (help and completions list them all). */
export async function loadCommands(): Promise<Command[]> {
  return Promise.all(COMMANDS.map((c) => c.load()));
}
