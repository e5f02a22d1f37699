/**
 * The values of `--confirm-judge` and `--confirm-second`, checked as clap checks them. Kept
 * apart from the judge so the command line stays light: the judge's modules load only when
 * it is asked for.
 */
import { InvalidValue } from "./args.js";
import type { JudgeMode, SecondQuestion } from "../guards/confirm/index.js";

const MODES: readonly JudgeMode[] = ["log", "enforce"];
const SECONDS: readonly SecondQuestion[] = ["proposed", "described"];

/** `--confirm-judge`'s values. */
export function judgeMode(raw: string): JudgeMode {
  if ((MODES as readonly string[]).includes(raw)) return raw as JudgeMode;
  throw new InvalidValue(`[possible values: ${MODES.join(", ")}]`);
}

/** `--confirm-second`'s values. */
export function secondQuestion(raw: string): SecondQuestion {
  if ((SECONDS as readonly string[]).includes(raw)) return raw as SecondQuestion;
  throw new InvalidValue(`[possible values: ${SECONDS.join(", ")}]`);
}
