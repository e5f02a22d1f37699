import type { PluginFactory } from "../bus/runtime/api.js";
import { commitPlugin } from "../plugins/commit/commit-plugin.js";
import { ContextFile } from "../plugins/context/context-file.js";
import { contextPlugin } from "../plugins/context/context-plugin.js";
import { guardsFor } from "../guards/domains.js";
import { guardsPlugin } from "../plugins/guards/guards-plugin.js";
import { ProxyError } from "../util/proxy-error.js";
import { sessionPath } from "../util/session-path.js";
import { flag, one, type ParsedArgs } from "./args.js";
import type { flowFromArgs } from "./flow-options.js";
import { say } from "./report.js";
import { errorText } from "../util/error-text.js";

/**
 * The built-in features as plugins, in chain order: the conversation is logged before
 * anything looks at a call; a commit is taken before the guards (its calls are checked one
 * by one inside it); the guards refuse before the server sees a call. User plugins follow.
 * Setup errors are the proxy's own failures (exit 125).
 */
export function builtinPlugins(
  args: ParsedArgs,
  session: { session: string; hostSession?: string | undefined },
  /** The flow's module, loaded by the caller only with `--flow` (it pulls in the flow and the oracle). */
  flows?: { flowFromArgs: typeof flowFromArgs },
): PluginFactory[] {
  const plugins: PluginFactory[] = [];

  const contextOpt = one<string>(args, "context");
  if (contextOpt !== undefined) {
    const file = new ContextFile(sessionPath(contextOpt, session));
    plugins.push(contextPlugin(file));
  }
  if (flag(args, "commit")) {
    plugins.push(commitPlugin());
  }
  if (flag(args, "guards")) {
    const domain = one<string>(args, "domain");
    try {
      guardsFor(domain);
    } catch (err) {
      throw new ProxyError(errorText(err));
    }
    // The judge's modules (the oracle, its HTTP client) load only when it is asked for.
    const judged = one(args, "confirm-judge") !== undefined;
    plugins.push(
      judged
        ? async (ctx) => {
            const { judgeFromArgs } = await import("./confirm-options.js");
            return guardsPlugin({ domain: domain!, ...judgeFromArgs(args, session) })(ctx);
          }
        : guardsPlugin({ domain: domain! }),
    );
  }
  // The flow sees the server's answers after the guards and commit have passed them.
  const flow = flows?.flowFromArgs(args, session, (m) => say("stretto-proxy", m));
  if (flow !== undefined) plugins.push(flow);
  return plugins;
}
