/**
 * The plugin test kit: `import { runPlugins, testOperator } from "stretto-proxy/testing"`.
 * `runPlugins` runs plugins through the proxy's own active session with a scripted host and
 * server in memory; `testOperator` tests one operator with RxJS marble diagrams.
 */
export { runPlugins, KitTimeout, DEFAULT_TIMEOUT_MS, type RunPluginsOptions, type PluginRun, type HostStep } from "./run-plugins.js";
export { conversationSays, type ConversationStep } from "./conversation.js";
export { MemoryServer, SERVER_EXITS, type ServerScript, type ServerReply } from "./memory-server.js";
export { MemoryRecorder } from "./memory-recorder.js";
export { testOperator, frameMarbles, frameOf, linesOf, framesOf, type FrameMarbles, type SeenFrame } from "./marbles.js";
export { stubContext, type StubContext, type StubContextOptions } from "./stub-context.js";
export {
  request, notification, toolCall, resultFor, errorFor, toolResultFor,
  type ScriptLine, type SeenLine, type ServerMessage,
} from "./lines.js";
