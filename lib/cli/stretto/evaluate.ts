/**
 * `stretto evaluate --decisions FILE --target NAME=DECIDER@THRESHOLD`:
 * off-policy estimates of how other deciders and thresholds would have done, from decisions
 * a flow logged while exploring (`--flow-explore`), labelled with what the agent did.
 */
import { writeFile } from "node:fs/promises";
import { EvaluateError, evaluate, evaluationMarkdown, parseTarget, readDecisions, type LoggedDecision, type Target } from "../../evaluate/index.js";
import { osErrorText } from "../../util/os-errors.js";
import { EXIT_OK, EXIT_UNREADABLE, TextOut, UsageError, say, type Command, type Io, type ParsedArgs } from "./command.js";

const USAGE = "stretto evaluate --decisions FILE... --target NAME=DECIDER@THRESHOLD... [--min-ess N] [--out FILE]";
export const DEFAULT_MIN_ESS = 10;

export const evaluateCommand: Command = {
  name: "evaluate",
  usage: USAGE,
  summary: "Estimate off-policy how other deciders and thresholds would do (research; Markdown).",
  help: [
    "Reads flow decisions logged with exploration (stretto-proxy --flow-explore), one JSON",
    "line each with the logged `policy` and `labels`, one per policy option:",
    '{"used": bool, "detour": bool, "turn": number}. For each target it estimates, per site',
    "and in total, the lookups it would make, those the agent made itself later (used), the",
    "detours and the LLM turns saved: logged (what the flow did), direct (the labels of the",
    "target's choices), IPS, SNIPS and DR (what the flow did, reweighted by 1/propensity",
    "where the target agrees; the propensity is recomputed from the policy). The weighted",
    "estimates are left out where the target looks something up and the effective sample",
    "size is below --min-ess.",
    "",
    "  --decisions FILE  Labelled decisions, JSON lines (repeatable).",
    "  --target NAME=DECIDER@THRESHOLD",
    "                    A policy to estimate (repeatable): DECIDER is arbiter (the logged",
    "                    probabilities; decisions must be logged with the arbiter) or habit.",
    `  --min-ess N       Default ${DEFAULT_MIN_ESS}.`,
    "  --out FILE        Write the Markdown there instead of stdout.",
  ].join("\n"),
  valueOptions: ["--decisions", "--target", "--min-ess", "--out"],
  run: (args, io) => run(args, io),
};

function targets(args: ParsedArgs): Target[] {
  const out: Target[] = [];
  for (const text of args.lists.get("--target") ?? []) {
    const t = parseTarget(text);
    if (typeof t === "string") throw new UsageError(t, USAGE);
    if (out.some((o) => o.name === t.name)) throw new UsageError(`two targets are named ${t.name}`, USAGE);
    out.push(t);
  }
  if (out.length === 0) throw new UsageError("evaluate needs --target NAME=DECIDER@THRESHOLD", USAGE);
  return out;
}

async function run(args: ParsedArgs, io: Io): Promise<number> {
  const files = args.lists.get("--decisions") ?? [];
  if (files.length === 0) throw new UsageError("evaluate needs --decisions FILE", USAGE);
  const wanted = targets(args);
  const rawEss = args.options.get("--min-ess");
  const minEss = rawEss === undefined ? DEFAULT_MIN_ESS : Number(rawEss);
  if (rawEss !== undefined && (rawEss.trim() === "" || !Number.isFinite(minEss) || minEss < 0)) {
    throw new UsageError(`--min-ess needs a number of 0 or more, not ${rawEss}`, USAGE);
  }
  let md: string;
  try {
    const decisions: LoggedDecision[] = [];
    for (const f of files) decisions.push(...(await readDecisions(f)));
    if (decisions.length === 0) throw new EvaluateError(`there are no decisions in ${files.join(", ")}`);
    md = evaluationMarkdown(
      wanted.map((t) => evaluate(t, decisions, minEss)),
      decisions.length,
      minEss,
    );
  } catch (e) {
    if (!(e instanceof EvaluateError)) throw e;
    say(io, e.message);
    return EXIT_UNREADABLE;
  }
  const out = args.options.get("--out");
  if (out !== undefined) {
    try {
      await writeFile(out, md);
    } catch (e) {
      say(io, `writing ${out}: ${osErrorText(e)}`);
      return EXIT_UNREADABLE;
    }
    return EXIT_OK;
  }
  const text = new TextOut(io.stdout);
  await text.write(md);
  await text.flush();
  return EXIT_OK;
}
