/**
 * The next steps `stretto init` prints on stderr, from where this configuration stands:
 * recording (record, learn, review, shadow, promote, serve), a flow in shadow (promote,
 * serve), or a served flow (keep it current). Each command keeps the policy and the server
 * this configuration has, so running it prints the next configuration.
 */
import { byUrl, listeningCommand } from "./host-config.js";
import { listenArgs, policyArgs, targetArgs } from "./proxy-args.js";
import type { Setup } from "./setup.js";
import { shellLine, shellWord } from "./shell-words.js";

interface Step {
  text: string;
  commands: string[];
}

const ORACLE_CACHE = "~/.stretto/oracle-cache";

export function nextSteps(s: Setup): string {
  const d = s.domain;
  const init = shellLine(["stretto", "init", "--host", s.host, "--domain", d, ...policyArgs(s), ...listenArgs(s)]);
  const server = shellLine(targetArgs(s));
  const learned = `~/.stretto/${d}.flow.json`;
  const promoted = `~/.stretto/${d}-promoted.flow.json`;
  let replaced = 0;
  const replace = (): string => {
    if (byUrl(s)) return "Restart the proxy with the command this prints";
    return replaced++ === 0 ? "Replace the configuration above with what this prints" : "Replace the configuration with what this prints";
  };
  const promote = (flow: string, sessions: string, decider: string | undefined, arbiter: boolean): Step => ({
    text: "Keep the flow to the calls where its lookups were the agent's own:",
    commands: [
      `${shellLine(["stretto", "promote", "--flow", flow, "--sessions", sessions, ...(decider === undefined ? [] : ["--decider", decider])])}${arbiter ? ` --oracle-cache ${ORACLE_CACHE}` : ""} --out ${shellWord(promoted)}`,
    ],
  });
  const serve = (): Step => ({
    text: `Serve it: after each of the agent's calls, the flow's lookups ride in the same result. ${replace()}:`,
    commands: [`${init} --flow ${shellWord(promoted)} ${server}`],
  });

  const steps: Step[] = [];
  if (byUrl(s)) {
    steps.push({
      text: `Start the proxy, and keep it running: each host that connects to ${s.listen!.url} gets a session of its own.`,
      commands: [listeningCommand(s)],
    });
  }
  const flow = s.flow;
  if (flow === undefined) {
    steps.push(
      { text: `Use the agent as usual. The proxy records each session in ${s.record}.`, commands: [] },
      {
        text: "Learn a flow from the sessions, with no key:",
        commands: [shellLine(["stretto", "learn", "--sessions", s.record, "--domain", d, "--habit-only", "--out", learned])],
      },
      {
        text: "Review what it may do: the tools it may call, the lookups it may make and where their arguments come from:",
        commands: [shellLine(["stretto", "flow-show", learned])],
      },
      {
        text: `Run it in shadow: it decides and logs, but looks nothing up. ${replace()}:`,
        commands: [`${init} --flow ${shellWord(learned)} --shadow ${server}`],
      },
    );
    steps.push(promote(learned, `~/.stretto/shadow/${d}`, "reach", false), serve());
  } else if (flow.shadow) {
    steps.push(
      {
        text: `Use the agent as usual. The proxy records each session in ${s.record}, and next to it what the flow would have looked up (<session>.flow.jsonl).`,
        commands: [],
      },
      promote(flow.path, s.record, flow.decider, flow.hasArbiter),
      serve(),
    );
  } else {
    const fresh = `~/.stretto/${d}-new.flow.json`;
    steps.push(
      {
        text: `Use the agent as usual. After each of its calls, the flow's lookups ride in the same result. The proxy records each session in ${s.record}, and next to it each of the flow's decisions (<session>.flow.jsonl).`,
        commands: [],
      },
      {
        text: "When the agent, its prompts or the server change, learn again and review what changed (flow-diff exits with 1 when a change needs review):",
        commands: [
          shellLine(["stretto", "learn", "--sessions", s.record, "--domain", d, "--habit-only", "--out", fresh]),
          shellLine(["stretto", "flow-diff", flow.path, fresh]),
        ],
      },
    );
  }

  let text = "Next steps (docs/init.md says more about each):\n";
  steps.forEach((step, i) => {
    text += `\n${i + 1}. ${step.text}\n${step.commands.map((c) => `     ${c}\n`).join("")}`;
  });
  if (flow?.hasArbiter) {
    text +=
      "\nThis flow has an arbiter, which asks TypeSafe's Jev at each decision: give the server TYPESAFE_API_KEY (or TYPESAFE_API_KEY_FILE) in the host's `env`, or serve it with `--flow-decider habit`, which needs no key.\n";
  }
  if (s.judge !== undefined) {
    text +=
      "\nThe confirmation judge asks TypeSafe's Jev about each write the guards check for a confirmation: give the server TYPESAFE_API_KEY (or TYPESAFE_API_KEY_FILE) in the host's `env`. " +
      `It reads the conversation from ${s.judge.context}, which the host appends to, one JSON line per message: {"role": "user" | "assistant", "content": text}.\n`;
  }
  return text;
}
