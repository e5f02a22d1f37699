/**
 * The `stretto_commit` tool as the host lists it. The wording is exact and fixed: agents are
 * prompted by it, and sessions recorded with it stay comparable.
 */
export const COMMIT_TOOL_NAME = "stretto_commit";

export const COMMIT_TOOL = {
  name: COMMIT_TOOL_NAME,
  description:
    "Make several changes in one call, in order, once the user has confirmed all of them. Each call is checked against the policy first; the first call that is refused or fails stops the rest. Returns each call's result.",
  inputSchema: {
    type: "object",
    properties: {
      calls: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          properties: {
            name: { type: "string", description: "One of the other tools." },
            arguments: { type: "object" },
          },
          required: ["name", "arguments"],
        },
      },
    },
    required: ["calls"],
  },
  annotations: { readOnlyHint: false, destructiveHint: true },
};

/**
 * Our sentence for the server's `instructions` (docs/active-mode.md): hosts such as Claude Code put
 * those in the system prompt, which is where an agent learns a tool is meant for this.
 */
export const COMMIT_INSTRUCTIONS =
  "This session also offers stretto_commit: once the user has confirmed several changes, make them in one stretto_commit call, in order; each call is checked against the policy first, and the first one refused or failed stops the rest.";

export const COMMIT_USAGE =
  'stretto_commit takes {"calls": [{"name": tool, "arguments": {...}}, ...]}, one or more calls of the server\'s tools; nothing was run.';
