/** Whether a key for TypeSafe's Jev is set. Only presence is reported: the value is never read here. */
import type { Finding } from "./finding.js";

export function checkKey(env: NodeJS.ProcessEnv): Finding {
  if (env["TYPESAFE_API_KEY"]) {
    return { level: "ok", text: "TYPESAFE_API_KEY is set (its value is not shown); `stretto doctor --network` asks Jev one question with it" };
  }
  if (env["TYPESAFE_API_KEY_FILE"]) {
    return {
      level: "ok",
      text: "TYPESAFE_API_KEY_FILE is set, so stretto reads the key from that file; `stretto doctor --network` asks Jev one question with it",
    };
  }
  return {
    level: "note",
    text:
      "TYPESAFE_API_KEY is not set. It is optional: recording, `learn --habit-only`, `flow-show`, `flow-diff`, `audit`, `promote` and serving with " +
      "`--flow-decider habit` or `reach` need no key. With one, stretto asks TypeSafe's Jev: `learn` fits an arbiter, and the proxy serves " +
      "with `--flow-decider arbiter` and runs the confirmation judge.",
  };
}

/** Whether a key variable is set, as `checkKey` decides it. */
export function keyIsSet(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env["TYPESAFE_API_KEY"] || env["TYPESAFE_API_KEY_FILE"]);
}
