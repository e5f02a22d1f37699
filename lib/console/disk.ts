/** What the data directory takes on disk, by kind: logs, flows, the oracle cache, the rest. Links are not followed. */
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { DiskUse } from "./api-types.js";

export function diskUse(data: string): DiskUse {
  const d: DiskUse = { logs_bytes: 0, flows_bytes: 0, cache_bytes: 0, other_bytes: 0, total_bytes: 0 };
  const walk = (dir: string, cache: boolean) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(dir, name);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(p, cache || (dir === data && name === "oracle-cache"));
      else if (st.isFile()) {
        if (cache) d.cache_bytes += st.size;
        else if (name.endsWith(".jsonl")) d.logs_bytes += st.size;
        else if (name.endsWith(".flow.json")) d.flows_bytes += st.size;
        else d.other_bytes += st.size;
      }
    }
  };
  walk(data, false);
  d.total_bytes = d.logs_bytes + d.flows_bytes + d.cache_bytes + d.other_bytes;
  return d;
}
