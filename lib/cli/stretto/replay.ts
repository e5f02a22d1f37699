/**
 * `stretto replay <log> [--guards --domain D] [--commit] [--context F] [--plugin M]... [--flow F …]`:
 * a recorded session's host side fed through the same plugins as the live proxy, with the
 * server's side answered from the log. One JSON line per thing a plugin did.
 */
import { builtinPlugins } from "../builtin-plugins.js";
import { loadPlugin } from "../../bus/runtime/load.js";
import { readLog } from "../../trace/index.js";
import { replay } from "../../replay/replay.js";
import { ReplayStuck } from "../../replay/progress.js";
import { ProxyError } from "../../util/proxy-error.js";
import { EXIT_OK, EXIT_UNREADABLE, TextOut, UsageError, onePositional, say, type Command } from "./command.js";
import { FLOW_FLAG_OPTIONS, FLOW_VALUE_OPTIONS, flowValues } from "./replay-flow-options.js";
import { JUDGE_FLAG_OPTIONS, JUDGE_VALUE_OPTIONS, judgeValues } from "./replay-judge-options.js";

export const replayCommand: Command = {
  name: "replay",
  usage: "stretto replay <log> [--guards --domain D [--confirm-judge MODE [JUDGE OPTIONS]]] [--commit] [--context FILE] [--plugin MODULE]... [--flow FILE [FLOW OPTIONS]]",
  summary: "Feed a recorded session through the proxy's plugins; print what they did (JSONL).",
  help: [
    "Replays the host's side of a recorded session through the plugins the live proxy would",
    "run, with the server's side answered from the log in the recorded order, and prints one",
    "JSON line per thing a plugin did, with the session's own ids:",
    '  {"action":"refused","id":4,"tool":"cancel_pending_order","text":"Refused by …"}',
    '  {"action":"answered","id":6,"tool":"stretto_commit","text":"…","isError":false}',
    '  {"action":"rewrote","id":2,"method":"tools/list"}',
    '  {"action":"looked_up","id":"stretto-1","method":"tools/call","tool":"…","arguments":{…}}',
    '  {"action":"forwarded_part","ids":[9]}   (what a guarded batch sent on)',
    "",
    "  --guards          check calls against the policy guards of --domain (retail, airline)",
    "  --domain NAME     the guards' domain (default: the log's)",
    "  --confirm-judge log|enforce  judge the writes the guards check for a confirmation, with",
    "                    stretto-proxy's judge options (--confirm-second, --confirm-second-shadow,",
    "                    --confirm-threshold, --confirm-questions, --confirm-log) and --oracle,",
    "                    --oracle-cache (--oracle replay answers from the cache alone)",
    "  --commit          serve stretto_commit",
    "  --context FILE    the conversation file to read (default: the log's own context lines)",
    "  --plugin MODULE   a user plugin, as stretto-proxy --plugin (repeatable)",
    "  --flow FILE       serve this flow, with stretto-proxy's flow options (--flow-decider,",
    "                    --flow-threshold, --flow-shadow, --flow-log, --flow-tools, --task-id,",
    "                    --oracle, --server-name, …); its lookups are answered from the log",
  ].join("\n"),
  valueOptions: ["--domain", "--context", "--plugin", ...FLOW_VALUE_OPTIONS, ...JUDGE_VALUE_OPTIONS],
  flagOptions: ["--guards", "--commit", ...FLOW_FLAG_OPTIONS, ...JUDGE_FLAG_OPTIONS],
  async run(args, io) {
    const path = onePositional(this, args, "a log file");
    const log = await readLog(path);
    const domain = args.options.get("--domain") ?? log.header.domain ?? undefined;
    const values = new Map<string, unknown[]>();
    if (args.flags.has("--guards")) values.set("guards", [true]);
    if (args.flags.has("--commit")) values.set("commit", [true]);
    if (domain !== undefined) values.set("domain", [domain]);
    const context = args.options.get("--context");
    if (context !== undefined) values.set("context", [context]);
    const flow = flowValues(args);
    if ("error" in flow) throw new UsageError(flow.error, this.usage);
    for (const [name, v] of flow.values) values.set(name, v);
    const judge = judgeValues(args);
    if ("error" in judge) throw new UsageError(judge.error, this.usage);
    for (const [name, v] of judge.values) values.set(name, v);
    // The flow's modules load only when asked for, as in the proxy.
    const flows = values.has("flow") ? await import("../flow-options.js") : undefined;
    let plugins;
    try {
      plugins = [
        ...builtinPlugins({ values, trailing: [] }, { session: log.header.session, hostSession: log.header.host_session }, flows),
        ...(await Promise.all((args.lists.get("--plugin") ?? []).map((m) => loadPlugin(m)))),
      ];
    } catch (e) {
      if (e instanceof ProxyError) throw new UsageError(e.message, this.usage);
      throw e;
    }
    const out = new TextOut(io.stdout);
    const lines: string[] = [];
    try {
      await replay(log, {
        plugins,
        useLoggedContext: context === undefined,
        onAction: (a) => lines.push(JSON.stringify(a)),
        say: (m) => say(io, m),
      });
    } catch (e) {
      if (!(e instanceof ReplayStuck)) throw e;
      // What the plugins did up to there is still printed, then why the replay stopped.
      for (const l of lines) await out.write(`${l}\n`);
      await out.flush();
      say(io, `the replay stopped: ${e.message}`);
      return EXIT_UNREADABLE;
    }
    for (const l of lines) await out.write(`${l}\n`);
    await out.flush();
    return EXIT_OK;
  },
};
