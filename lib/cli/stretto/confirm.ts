/**
 * `stretto confirm (--sessions DIR | --tau2-results FILE)... [--domain NAME] [--oracle …]`
 * (docs/confirm-judge.md, "Offline: stretto confirm"): the confirmation judge against recorded
 * sessions. Every write a domain's `*.confirmed` rule covers is put to the System-One model
 * as `stretto-proxy --confirm-judge` would put it (the same requests, so the same cached
 * answers), and counted beside the word list by whether the tool accepted it and whether the
 * episode succeeded.
 */
import { ConfirmCollector, askAll, confirmAudits, confirmJson, confirmMarkdown, type SecondQuestion } from "../../guards/confirm/index.js";
import { GUARD_DOMAINS, rulesFor } from "../../guards/index.js";
import { makeOracle } from "../../oracle/make-oracle.js";
import { defaultModel, type OracleKind } from "../../oracle/oracle.js";
import { folderEpisodes, unqualified } from "../../trace/index.js";
import { InvalidValue } from "../args.js";
import { float } from "../flow-values.js";
import { ORACLE_CACHE } from "./audited-flow.js";
import { EXIT_OK, EXIT_UNREADABLE, UsageError, say, type Command, type Io, type ParsedArgs } from "./command.js";
import { STRICT_FLAG, STRICT_HELP, planWithProgress } from "./folder-report.js";
import { ProgressLine, QUIET_FLAG, QUIET_HELP, quiet } from "./progress.js";
import { ReportWriteError, writeReportTexts } from "./report-files.js";
import { readTau2Results } from "./tau2-results.js";

const USAGE = "stretto confirm (--sessions DIR | --tau2-results FILE)... [--domain NAME] [--oracle ORACLE] [--oracle-cache DIR] [--threshold P] [--second-question described|proposed] [--examples N] [--json FILE] [--out FILE]";
const ORACLES: readonly OracleKind[] = ["replay", "jev", "mock"];
const SECONDS: readonly SecondQuestion[] = ["proposed", "described"];
/** Fewer questions than this are asked too soon to need progress. */
const PROGRESS_MIN_QUESTIONS = 20;

export const confirmCommand: Command = {
  name: "confirm",
  usage: USAGE,
  summary: "Judge recorded writes with the confirmation judge, beside the word list (Markdown).",
  help: [
    "Puts every write a domain's *.confirmed rule covers to the System-One model, as",
    "stretto-proxy --confirm-judge would: did the customer's reply explicitly agree to this",
    "exact change? The request is built from what came before the write's turn exactly as the",
    "proxy builds it, so the two share cached answers. Counts, beside the word list, the",
    "writes the tool accepted in successful and in failed episodes and those it refused, and",
    "lists examples where the two disagree. A log does not know whether its task succeeded:",
    "its episodes count as failed; a τ²-bench results file does.",
    "",
    "  --sessions DIR        Session logs recorded by stretto-proxy (repeatable).",
    "  --tau2-results FILE   A τ²-bench results.json (repeatable).",
    "  --domain NAME         Judge every episode as retail or airline (default: each",
    "                        episode's own domain; others are skipped).",
    "  --oracle ORACLE       replay (the cache alone; the default), jev (the cache, then Jev",
    "                        for what it lacks: needs TYPESAFE_API_KEY), or mock (0.5).",
    `  --oracle-cache DIR    The answer cache (default ${ORACLE_CACHE}; the proxy's is`,
    "                        ~/.stretto/oracle-cache).",
    "  --threshold P         A write fails when P(yes) is below P (default 0.5).",
    "  --second-question Q   Also ask proposed or described, as --confirm-second does.",
    "  --examples N          Examples of each disagreement (default 8).",
    "  --json FILE           Also write {\"audits\": [...], \"writes\": [...]} as JSON.",
    "  --out FILE            Write the Markdown report there instead of stdout.",
    "  --strict              Fail (exit 1) on a file in --sessions that is no session log.",
    QUIET_HELP,
    "",
    "A question the oracle cannot answer (a cache miss under replay, no key) leaves its",
    "write unanswered; stderr counts them by reason.",
    "",
    ...STRICT_HELP,
  ].join("\n"),
  valueOptions: ["--sessions", "--tau2-results", "--domain", "--oracle", "--oracle-cache", "--threshold", "--second-question", "--examples", "--json", "--out"],
  flagOptions: [STRICT_FLAG, QUIET_FLAG],
  valueChoices: { "--domain": GUARD_DOMAINS, "--oracle": ORACLES, "--second-question": SECONDS },
  run: (args, io) => confirm(args, io),
};

function choice<T extends string>(args: ParsedArgs, name: string, choices: readonly T[]): T | undefined {
  const v = args.options.get(name);
  if (v === undefined) return undefined;
  if (!(choices as readonly string[]).includes(v)) throw new UsageError(`${name} must be one of ${choices.join(", ")}, not ${v}`, USAGE);
  return v as T;
}

function number(args: ParsedArgs, name: string, whole: boolean): number | undefined {
  const v = args.options.get(name);
  if (v === undefined) return undefined;
  try {
    const n = float(v);
    if (whole && !(Number.isInteger(n) && n >= 0)) throw new InvalidValue("not a whole number");
    return n;
  } catch {
    throw new UsageError(`${name} takes ${whole ? "a whole number" : "a number"}, not ${v}`, USAGE);
  }
}

async function confirm(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`confirm takes no positional arguments, not ${args.positionals.join(" ")}`, USAGE);
  const sessions = args.lists.get("--sessions") ?? [];
  const results = args.lists.get("--tau2-results") ?? [];
  if (sessions.length === 0 && results.length === 0) throw new UsageError("confirm needs --sessions DIR or --tau2-results FILE", USAGE);
  const domain = choice(args, "--domain", GUARD_DOMAINS);
  const kind = choice(args, "--oracle", ORACLES) ?? "replay";
  const second = choice(args, "--second-question", SECONDS);
  const threshold = number(args, "--threshold", false) ?? 0.5;
  const examples = number(args, "--examples", true) ?? 8;
  const model = defaultModel();
  const quietly = quiet(args);

  const collector = new ConfirmCollector(rulesFor, model, second, unqualified);
  const skipped = new Map<string, number>();
  const add = (ep: Parameters<ConfirmCollector["add"]>[0], own: string) => {
    const d = domain ?? own;
    if (!collector.add(ep, d)) skipped.set(d, (skipped.get(d) ?? 0) + 1);
  };
  for (const dir of sessions) {
    const { folder, progress } = await planWithProgress(io, dir, args.flags.has(STRICT_FLAG), quietly);
    for await (const ep of folderEpisodes(folder, (done, total) => progress.update("reading sessions", done, total))) add(ep, ep.domain);
    progress.done();
  }
  for (const file of results) {
    const read = await readTau2Results(file);
    if (domain !== undefined && read.domain !== domain) {
      say(io, `skipped ${file}: its domain is ${read.domain || "not named"}, not ${domain}`);
      continue;
    }
    for (const ep of read.episodes) add(ep, read.domain);
  }
  for (const [d, n] of skipped) say(io, `skipped ${n} episode${n === 1 ? "" : "s"} of domain ${d || "(none)"}: it has no *.confirmed rule (use --domain retail or airline)`);

  const cache = args.options.get("--oracle-cache") ?? ORACLE_CACHE;
  const made = makeOracle({ kind, cache });
  if (made.notice !== undefined) say(io, made.notice);
  const progress = new ProgressLine(io, { quiet: quietly });
  progress.start(collector.questions.size, PROGRESS_MIN_QUESTIONS);
  const answers = await askAll(made.oracle, collector.questions, (done, total) => progress.update("asking the System-One model", done, total));
  progress.done();
  for (const [reason, n] of answers.unanswered) say(io, `${n} question${n === 1 ? "" : "s"} went unanswered: ${reason}`);

  const audits = confirmAudits(collector, answers, threshold, examples);
  const md = confirmMarkdown(audits, { threshold, model, ...(second === undefined ? {} : { second }) });
  try {
    await writeReportTexts(io, args.options, md, confirmJson(audits, collector.writes));
  } catch (e) {
    if (!(e instanceof ReportWriteError)) throw e;
    say(io, e.message);
    return EXIT_UNREADABLE;
  }
  return EXIT_OK;
}

