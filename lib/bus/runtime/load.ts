import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ProxyError } from "../../util/proxy-error.js";
import type { PluginFactory } from "./api.js";

/**
 * Loads a `--plugin` module: a path (relative to the working directory) or a package
 * name. Its default export (or an export named `plugin`) must be a PluginFactory.
 */
export async function loadPlugin(spec: string, cwd = process.cwd()): Promise<PluginFactory> {
  const isPath = spec.startsWith(".") || isAbsolute(spec);
  const target = isPath ? pathToFileURL(resolve(cwd, spec)).href : spec;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(target)) as Record<string, unknown>;
  } catch (err) {
    throw new ProxyError(`loading the plugin ${spec}`, err);
  }
  const factory = mod["default"] ?? mod["plugin"];
  if (typeof factory !== "function") {
    throw new ProxyError(`loading the plugin ${spec}: it exports no plugin (a default export that is a function)`);
  }
  return factory as PluginFactory;
}
