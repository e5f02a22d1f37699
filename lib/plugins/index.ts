/** The public plugin API: `import { decide, messagesOf, toolAnswer, CONVERSATION } from "stretto-proxy/plugins"`. */
export type { Plugin, PluginContext, PluginFactory, OwnAnswer, OwnRequestOptions } from "../bus/runtime/api.js";
export { decide } from "../bus/runtime/decide.js";
export { serviceKey, type ServiceKey } from "../bus/runtime/services.js";
export { CONVERSATION, CALL_CHECK, JUDGED_CALL_CHECK, type Conversation, type CallCheck, type CallVerdict, type CheckedCall, type JudgedCallCheck } from "./services.js";
export { errorLine, messageLine } from "../protocol/compose.js";
export { idKeyOfValue } from "../protocol/id-key.js";
export {
  jsonOf, isRequest, isNotification, isResponse, requestOf, responseOf, idKey, line, toolResult,
  messagesOf, keepMessages, toolAnswer, mayHold,
  type RpcId, type RpcRequest, type RpcResponse, type RpcNotification, type WireMessage,
} from "../bus/runtime/json-rpc.js";
export { frame, type Frame, type Sender } from "../bus/frame.js";
export { OWN_ID_PREFIX, DEFAULT_PATIENCE_MS } from "../bus/runtime/own-requests.js";
