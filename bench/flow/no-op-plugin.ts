/**
 * A plugin that acts on nothing: `--plugin` with it makes the proxy active (whole lines,
 * the plugin chain, the session's Episode kept for it, built only if it is read) without any
 * feature, so a bench can show what active mode itself costs beside what a feature adds.
 */
import type { PluginFactory } from "../../lib/bus/runtime/api.js";

const noOp: PluginFactory = () => ({ name: "no-op" });
export default noOp;
