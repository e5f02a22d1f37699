/** Every `stretto` subcommand, in the order help lists them. A new one is a file and a line here. */
import type { Command } from "./command.js";
import { completionsCommand } from "./completions.js";
import { doctorCommand } from "./doctor.js";
import { auditCommand } from "./audit.js";
import { driftCommand } from "./drift.js";
import { episodeCommand } from "./episode.js";
import { flowCommitCommand } from "./flow-commit.js";
import { flowLogCommand } from "./flow-log.js";
import { flowRollbackCommand } from "./flow-rollback.js";
import { stageCommand } from "./stage.js";
import { exportAnswersCommand } from "./export-answers.js";
import { importAnswersCommand } from "./import-answers.js";
import { episodesCommand } from "./episodes.js";
import { evaluateCommand } from "./evaluate.js";
import { exportArbiterCommand } from "./export-arbiter.js";
import { flowDiffCommand } from "./flow-diff.js";
import { flowShowCommand } from "./flow-show.js";
import { guardsCommand } from "./guards.js";
import { confirmCommand } from "./confirm.js";
import { initCommand } from "./init.js";
import { learnCommand } from "./learn.js";
import { manifestCommand } from "./manifest.js";
import { promoteCommand } from "./promote.js";
import { redactCommand } from "./redact.js";
import { replayCommand } from "./replay.js";

export const COMMANDS: readonly Command[] = [episodeCommand, episodesCommand, manifestCommand, replayCommand, guardsCommand, confirmCommand, redactCommand, learnCommand, promoteCommand, evaluateCommand, flowShowCommand, flowDiffCommand, auditCommand, driftCommand, stageCommand, flowCommitCommand, flowRollbackCommand, flowLogCommand, exportAnswersCommand, importAnswersCommand, exportArbiterCommand, initCommand, doctorCommand, completionsCommand(() => COMMANDS)];
