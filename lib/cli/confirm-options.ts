/**
 * `--confirm-judge` and the options under it (docs/confirm-judge.md): the judge the guards
 * plugin asks, with its oracle and its log. Loaded only when the judge is asked for.
 */
import { join } from "node:path";
import { flag, one, type ParsedArgs } from "./args.js";
import type { PluginContext } from "../bus/runtime/api.js";
import { ConfirmJudge, type JudgeMode, type SecondQuestion } from "../guards/confirm/index.js";
import { makeOracle } from "../oracle/make-oracle.js";
import { defaultModel, type OracleKind } from "../oracle/oracle.js";
import { ConfirmLogFile, type ConfirmLogSink } from "../plugins/guards/confirm-log.js";
import { sessionPath } from "../util/session-path.js";
import { expandTilde } from "../util/tilde.js";

export interface JudgeWiring {
  judge: (session: PluginContext) => ConfirmJudge;
  confirmLog: (session: PluginContext) => ConfirmLogSink | undefined;
}

/**
 * The judge the command line asks for, or undefined without `--confirm-judge`. Its oracle is
 * its own, built from `--oracle` (default jev) and `--oracle-cache`; without a key the
 * session says so once and the judge then refuses nothing.
 */
export function judgeFromArgs(args: ParsedArgs, session: { session: string; hostSession?: string | undefined }): JudgeWiring | undefined {
  const mode = one<JudgeMode>(args, "confirm-judge");
  if (mode === undefined) return undefined;
  const cache = one<string>(args, "oracle-cache");
  const made = makeOracle({ kind: one<OracleKind>(args, "oracle") ?? "jev", ...(cache === undefined ? {} : { cache }) });
  const notice = made.notice;
  // The key's reason is said once, at the start; the judge does not say it again at each write.
  const alreadySaid = notice === undefined ? [] : [notice.replace(/^the System-One model has no key: /, "")];
  const second = one<SecondQuestion>(args, "confirm-second");
  const threshold = one<number>(args, "confirm-threshold");
  const questions = one<number>(args, "confirm-questions");
  const logOpt = one<string>(args, "confirm-log");
  const record = one<string>(args, "record");
  const logPath =
    logOpt !== undefined ? sessionPath(logOpt, session) : record !== undefined ? join(expandTilde(record), `${session.session}.confirm.jsonl`) : undefined;
  return {
    judge: (ctx) => {
      if (notice !== undefined) ctx.say(notice);
      return new ConfirmJudge({
        mode,
        oracle: made.oracle,
        model: defaultModel(),
        ...(threshold === undefined ? {} : { threshold }),
        ...(questions === undefined ? {} : { questions }),
        ...(second === undefined ? {} : { second, secondShadow: flag(args, "confirm-second-shadow") }),
        say: (m) => ctx.say(m),
        alreadySaid,
        now: () => ctx.clock.now(),
      });
    },
    confirmLog: (ctx) => (logPath === undefined ? undefined : ConfirmLogFile.open(logPath, (m) => ctx.say(m))),
  };
}
