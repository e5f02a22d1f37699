/**
 * Reviewing flows as code: a flow as data (`flowView`) and as Markdown (`showFlow`), and
 * what changed between two (`diffFlows`). Used by `stretto flow-show` and `stretto flow-diff`.
 */
export { flowView, type FlowView } from "./flow-view.js";
export { showFlow } from "./show-flow.js";
export { diffFlows, type DiffSection, type DiffSettings, type FlowDiff } from "./diff-flows.js";
export { servedDecider, weighedBy, type WeighedBy } from "./served-decider.js";
export type { SiteView, LookupView, Likely } from "./site-view.js";
export type { LookupBindingView, ArgumentView, SourceView, SiteOrder } from "./lookup-bindings.js";
