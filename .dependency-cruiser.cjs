/**
 * The layers of lib/, checked on every `make test`. From the bottom:
 *   protocol/ util/ version.ts        the vocabulary: JSON, JSON-RPC, MCP eras, ids; small helpers
 *   trace/                            recorded logs and Episodes (the plugin API speaks of Episodes)
 *   bus/                              frames, sources, sinks, ports, and the plugin runtime
 *   transport/ record/ oracle/        what the bus's ports plug into; the System-One model
 *   flow/ guards/                     the engines, libraries of their own (no bus)
 *   plugins/                          thin adapters of the engines onto the public plugin API
 *   replay/ demo/ procedure/ learn/ review/ promote/ evaluate/ redact/ testing/ audit/ drift/ stage/ init/ doctor/ completions/ console/   tools built on the above
 *   cli/                              the only place that parses argv
 * A folder may import its own layer's neighbours and anything below; never above, never in a cycle.
 */
const L = {
  vocab: "^lib/(protocol|util)/|^lib/version\\.ts$",
  trace: "^lib/trace/",
  bus: "^lib/bus/",
  ports: "^lib/(transport|record|oracle)/",
  engines: "^lib/(flow|guards)/",
  plugins: "^lib/plugins/",
  tools: "^lib/(replay|demo|procedure|learn|review|promote|evaluate|redact|testing|audit|drift|stage|init|doctor|completions|console)/",
  cli: "^lib/cli/",
  root: "^lib/index\\.ts$",
};
const above = (...layers) => layers.map((l) => L[l]).join("|");

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "Folders and files import in one direction.", from: {}, to: { circular: true } },
    { name: "vocabulary-is-the-ground", severity: "error", from: { path: L.vocab }, to: { path: above("trace", "bus", "ports", "engines", "plugins", "tools", "cli", "root") } },
    { name: "trace-below-the-bus", severity: "error", from: { path: L.trace }, to: { path: above("bus", "ports", "engines", "plugins", "tools", "cli", "root") } },
    { name: "bus-below-what-plugs-into-it", severity: "error", from: { path: L.bus }, to: { path: above("ports", "engines", "plugins", "tools", "cli", "root") } },
    { name: "ports-below-plugins", severity: "error", from: { path: L.ports }, to: { path: above("engines", "plugins", "tools", "cli", "root") } },
    { name: "engines-stand-alone", severity: "error", comment: "The engines use neither the bus nor a transport.", from: { path: L.engines }, to: { path: above("bus", "plugins", "tools", "cli", "root") + "|^lib/(transport|record)/" } },
    { name: "plugins-below-tools", severity: "error", from: { path: L.plugins }, to: { path: above("tools", "cli", "root") } },
    {
      name: "built-ins-use-the-public-api",
      severity: "error",
      comment: "A built-in plugin reaches the bus only through lib/plugins/index.ts and lib/plugins/rx.ts, as a user's plugin would.",
      from: { path: "^lib/plugins/[^/]+/" },
      to: { path: "^lib/bus/" },
    },
    {
      name: "built-ins-do-not-lean-on-each-other",
      severity: "error",
      comment: "What one built-in needs from another is a service on the plugin context.",
      from: { path: "^lib/plugins/([^/]+)/" },
      to: { path: "^lib/plugins/[^/]+/", pathNot: "^lib/plugins/$1/" },
    },
    { name: "tools-below-cli", severity: "error", from: { path: L.tools }, to: { path: above("cli", "root") } },
    { name: "only-cli-parses-argv", severity: "error", from: { pathNot: L.cli }, to: { path: L.cli } },
  ],
  options: {
    includeOnly: "^lib/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
