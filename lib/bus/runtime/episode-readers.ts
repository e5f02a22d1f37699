/**
 * Who reads the session's whole Episode: each plugin that did not say `readsEpisode: false`,
 * until it says it no longer does (`PluginContext.releaseEpisode`). The Episode keeps its
 * history only while one does (docs/session-memory.md): `keepWhole` once every plugin is set
 * up, `dropHistory` when the last reader lets it go later.
 */
import type { Plugin, PluginContext } from "./api.js";
import type { SessionLog } from "./session-log.js";

export class EpisodeReaders {
  private readonly released = new Set<number>();
  private plugins: readonly Plugin[] = [];
  private settled = false;

  /** `always`: keep the whole Episode whatever the plugins read (the plugin test kit returns it). */
  constructor(
    private readonly log: SessionLog,
    private readonly always: boolean,
  ) {}

  /** The context the `i`-th plugin (in option order) is set up with: `base`, with its own `releaseEpisode`. */
  contextFor(base: PluginContext, i: number): PluginContext {
    return { ...base, releaseEpisode: () => this.release(i) };
  }

  /** Once every plugin is set up (a plugin may let the Episode go while setting up). */
  settle(plugins: readonly Plugin[]): void {
    this.plugins = plugins;
    this.log.keepWhole(this.readWhole());
    this.settled = true;
  }

  private release(i: number): void {
    this.released.add(i);
    if (this.settled && !this.readWhole()) this.log.dropHistory();
  }

  private readWhole(): boolean {
    return this.always || this.plugins.some((p, i) => p.readsEpisode !== false && !this.released.has(i));
  }
}
