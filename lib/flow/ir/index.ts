/** The flow IR: its types, and loading a flow file. */
export * from "./flow-types.js";
export { PairMap } from "./pair-map.js";
export { FlowLoadError, loadFlow, parseFlow, flowFromJson } from "./load-flow.js";
export { compareKeys, flowText, flowToJson, formatVersion, sortedObject, sortedPairs } from "./flow-to-json.js";
