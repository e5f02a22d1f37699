/** The public plugin API: `import { decide, requestOf, toolResult } from "stretto-proxy/plugins"`. */
export type { Plugin, PluginContext, PluginFactory, OwnAnswer, OwnRequestOptions } from "../bus/runtime/api.js";
export { decide } from "../bus/runtime/decide.js";
export {
  jsonOf, isRequest, isNotification, isResponse, requestOf, responseOf, idKey, line, toolResult,
  messagesOf, keepMessages, toolAnswer,
  type RpcId, type RpcRequest, type RpcResponse, type RpcNotification, type WireMessage,
} from "../bus/runtime/json-rpc.js";
export { frame, type Frame, type Sender } from "../bus/frame.js";
export { OWN_ID_PREFIX, DEFAULT_PATIENCE_MS } from "../bus/runtime/own-requests.js";
