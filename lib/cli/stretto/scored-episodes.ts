/**
 * The episodes `stretto audit`, `stretto drift` and `stretto stage` score: τ²-bench results
 * first (`--results`, in the order given; other domains skipped; with `--tau2 DIR` only the
 * checkout's test split), then the sessions of each `--otel` file (OpenTelemetry spans), or
 * the session logs of each `--sessions` folder, in the order the sessions started, a host
 * session's logs merged across servers.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { episodeSessions, folderSessions, type SentSession } from "../../promote/index.js";
import type { Episode } from "../../trace/episode-types.js";
import type { Folder } from "../../trace/index.js";
import { LogReadError } from "../../trace/index.js";
import { readOtelEpisodes } from "../../trace/otel/index.js";
import { osErrorText } from "../../util/os-errors.js";
import { describeJsonSyntaxError } from "../../util/json-syntax-error.js";
import { UsageError, type Io, type ParsedArgs } from "./command.js";
import { STRICT_FLAG, planWithProgress } from "./folder-report.js";
import { ProgressLine, quiet } from "./progress.js";
import { readTau2Results } from "./tau2-results.js";

export const EPISODE_OPTIONS = ["--sessions", "--otel", "--results", "--tau2"];

export const EPISODE_HELP = [
  "  --sessions DIR      Session logs recorded by stretto-proxy (repeatable); a host",
  "                      session's logs of several servers are merged into one.",
  "  --otel FILE         OpenTelemetry spans (OTLP/JSON, GenAI and MCP conventions) instead",
  "                      of --sessions (repeatable): see docs/otel.md.",
  "  --results FILE      A τ²-bench results.json (repeatable), read before the sessions;",
  "                      simulations of another domain are skipped.",
  "  --tau2 DIR          With --results: keep only the tasks of the checkout's test split",
  "                      (data/tau2/domains/DOMAIN/split_tasks.json).",
];

export interface EpisodeSource {
  /** How many episodes there are, when known before reading (results, and every planned session). */
  total: number;
  /** Each episode, in order (read anew at each call). */
  episodes(): AsyncGenerator<Episode>;
  /** The same, each with when its calls were sent (as promotion scores a session). */
  sessions(): AsyncGenerator<SentSession>;
  /** The folders planned from `--sessions`, in the order given. */
  folders: readonly Folder[];
  /** The results' episodes, read whole. */
  results: readonly Episode[];
  /** The `--otel` files' episodes, read whole. */
  otel: readonly Episode[];
}

export interface SourceOptions {
  /** Whether `--tau2` keeps only the checkout's test split of the results (default true). */
  split?: boolean;
}

const splitSchema = {
  type: "object",
  required: ["test"],
  properties: { test: { type: "array", items: { type: "string" } } },
} as const;
let splitValidator: ValidateFunction | undefined;

/** The task ids of a τ²-bench checkout's test split for `domain`. */
export async function testSplit(checkout: string, domain: string): Promise<Set<string>> {
  const path = join(checkout, "data", "tau2", "domains", domain, "split_tasks.json");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    throw new LogReadError(`reading ${path}: ${osErrorText(e)}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new LogReadError(`${path} is not JSON: ${describeJsonSyntaxError(text)}`);
  }
  splitValidator ??= new Ajv({ strict: false }).compile(splitSchema);
  if (!splitValidator(doc)) throw new LogReadError(`${path} has no test split (a "test" list of task ids)`);
  return new Set((doc as { test: string[] }).test);
}

/** A session is its own task, as promotion reads a folder's sessions. */
export function ownTask(ep: Episode): Episode {
  return { ...ep, task_id: ep.id };
}

/** The episodes the command line names, for a flow of `domain`. */
export async function episodeSource(io: Io, args: ParsedArgs, domain: string, usage: string, options: SourceOptions = {}): Promise<EpisodeSource> {
  const dirs = args.lists.get("--sessions") ?? [];
  const results = args.lists.get("--results") ?? [];
  const otelFiles = args.lists.get("--otel") ?? [];
  if (otelFiles.length > 0 && dirs.length > 0) throw new UsageError("the argument '--otel <FILE>' cannot be used with '--sessions <DIR>'", usage);
  const tau2 = args.options.get("--tau2");
  if (tau2 !== undefined && results.length === 0) throw new UsageError("--tau2 keeps the test split of --results: pass --results too", usage);
  const split = tau2 === undefined || options.split === false ? undefined : await testSplit(tau2, domain);
  const read: Episode[] = [];
  for (const path of results) {
    const r = await readTau2Results(path);
    if (r.domain !== domain) continue;
    read.push(...r.episodes.filter((ep) => split === undefined || split.has(ep.task_id)));
  }
  const otel: Episode[] = [];
  for (const path of otelFiles) otel.push(...(await readOtelEpisodes(path, domain)).map(ownTask));
  const folders: Folder[] = [];
  for (const dir of dirs) folders.push((await planWithProgress(io, dir, args.flags.has(STRICT_FLAG), quiet(args))).folder);
  const total = read.length + otel.length + folders.reduce((n, f) => n + f.plan.sessions.length, 0);
  async function* sessions(): AsyncGenerator<SentSession> {
    yield* episodeSessions(read);
    yield* episodeSessions(otel);
    for (const folder of folders) yield* folderSessions(folder);
  }
  return {
    total,
    folders,
    results: read,
    otel,
    sessions,
    async *episodes() {
      for await (const s of sessions()) yield s.episode;
    },
  };
}

/**
 * The source's episodes, one at a time, with a progress line on stderr (`{label} n/total`,
 * nothing with `--quiet`); call `done()` once they have all been read.
 */
export function episodesWithProgress(io: Io, args: ParsedArgs, source: EpisodeSource, label: string): { episodes: AsyncIterable<Episode>; done: () => void } {
  const progress = new ProgressLine(io, { quiet: quiet(args) });
  progress.start(source.total);
  let read = 0;
  const episodes = async function* () {
    for await (const ep of source.episodes()) {
      yield ep;
      progress.update(label, ++read, source.total);
    }
  };
  return { episodes: episodes(), done: () => progress.done() };
}
