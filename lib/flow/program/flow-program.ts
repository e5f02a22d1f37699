/**
 * A flow's program bound to the flow's statistics: checked
 * when made, then run after a call in any of the three ways.
 */
import type { Flow } from "../ir/flow-types.js";
import { checkProgram } from "./compile-program.js";
import { driveAsync, driveSync, type RunResult } from "./drive.js";
import { execute } from "./execute.js";
import { liveHandler, scoreGivenTraceHandler, simulateHandler, type LiveCallbacks } from "./handlers.js";
import { ProgramError } from "./program-error.js";
import type { Program } from "./program-types.js";
import { RunModel } from "./run-model.js";
import { runSites, type RunSite } from "./trace.js";
import type { SiteValue } from "./values.js";
import { errorText } from "../../util/error-text.js";

/** What the flow log's run line holds (docs/flows.md, "Serve a flow"), less `after`. */
export interface RunLine {
  call: string;
  failed: boolean;
  max_lookups: number;
  sites: RunSite[];
  surprise: number;
}

export class FlowProgram {
  readonly program: Program;
  readonly model: RunModel;

  /** Throws `the flow's program: …` when the program does not compile against the flow. */
  constructor(flow: Flow) {
    try {
      checkProgram(flow.program);
    } catch (err) {
      throw new ProgramError(`the flow's program: ${errorText(err)}`);
    }
    this.program = flow.program;
    this.model = new RunModel(flow);
  }

  /** The run after a call to `tool` (failed or not) that makes at most `maxLookups` lookups. */
  private run(tool: string, failed: boolean, maxLookups: number) {
    // A tool the flow does not know gets the next id, so its decision still names it.
    const known = this.model.tools;
    const call = this.model.id(tool);
    const names = call === known.length ? [...known, tool] : known;
    return execute(this.program, this.model, names, { call, callFailed: failed, maxLookups });
  }

  /** Draws the run from the flow's statistics alone. */
  simulate(tool: string, failed: boolean, maxLookups: number, random: () => number): RunResult {
    return driveSync(this.run(tool, failed, maxLookups), simulateHandler(random));
  }

  /** Re-scores a logged run: every site takes its logged value and is scored here. */
  score(tool: string, failed: boolean, maxLookups: number, base: ReadonlyMap<string, SiteValue>): RunResult {
    return driveSync(this.run(tool, failed, maxLookups), scoreGivenTraceHandler(base));
  }

  /** The live run: decisions from the engine's decider, outcomes from its lookups. */
  live(tool: string, failed: boolean, maxLookups: number, callbacks: LiveCallbacks): Promise<RunResult> {
    return driveAsync(this.run(tool, failed, maxLookups), liveHandler(callbacks));
  }
}

/** The run line of a finished run: its sites in log order and its surprise in nats. */
export function runLine(tool: string, failed: boolean, maxLookups: number, result: RunResult): RunLine {
  return {
    call: tool,
    failed,
    max_lookups: maxLookups,
    sites: runSites(result.trace.choices),
    surprise: -result.trace.logLikelihood,
  };
}

/**
 * The run line's text, `{"after":…,"run":{…}}`: what `jsonText` makes of it (keys sorted,
 * compact), written in that order directly, since a run line is written after every call
 * the flow follows. Its sites hold only strings, numbers and booleans, which `JSON.stringify`
 * writes as `jsonText` does.
 */
export function runLineText(after: number | string, run: RunLine): string {
  return (
    `{"after":${JSON.stringify(after)},"run":{"call":${JSON.stringify(run.call)},"failed":${run.failed ? "true" : "false"},` +
    `"max_lookups":${JSON.stringify(run.max_lookups)},"sites":${JSON.stringify(run.sites)},"surprise":${JSON.stringify(run.surprise)}}}`
  );
}
