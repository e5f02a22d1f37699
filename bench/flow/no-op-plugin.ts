/**
 * A plugin that acts on nothing: `--plugin` with it makes the proxy active (every line
 * parsed, the session's Episode kept) without any feature, so a bench can show what active
 * mode itself costs beside what a feature adds.
 */
import type { PluginFactory } from "../../lib/bus/runtime/api.js";

const noOp: PluginFactory = () => ({ name: "no-op" });
export default noOp;
