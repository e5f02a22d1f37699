import { pruneAnswerCache, pruneSessionLogs } from "../record/retention.js";
import { errorText } from "../util/error-text.js";

/**
 * `--retain-days`: deletes the proxy's own logs in the record folder and answers in the
 * oracle cache older than so many days. Run at start, before anything else can fail, and
 * (over HTTP) again as each session opens, since that proxy outlives its sessions. It
 * never stops the proxy: a folder it cannot prune is said on stderr.
 */
export function pruner(recordDir: string | undefined, cacheDir: string, days: number | undefined, report: (m: string) => void): () => void {
  return () => {
    if (days === undefined) return;
    const sweeps: Array<[string, typeof pruneSessionLogs]> = [[cacheDir, pruneAnswerCache]];
    if (recordDir !== undefined) sweeps.unshift([recordDir, pruneSessionLogs]);
    for (const [dir, prune] of sweeps) {
      try {
        const n = prune(dir, days);
        if (n > 0) report(`deleted ${n} files older than ${days} days from ${dir}`);
      } catch (err) {
        report(`pruning ${dir}: ${errorText(err)}`);
      }
    }
  };
}
