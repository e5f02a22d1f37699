// A page's data: loaded now, again when its inputs change, and again (debounced 250 ms)
// when the server says something the page shows has changed.
import { onBeforeUnmount, ref, watch, type Ref } from "vue";
import { errorText } from "./api";
import { onChanged } from "./events";
import type { ChangedEvent as Changed } from "./types";

export interface Loaded<T> { data: Ref<T | null>; error: Ref<string | null>; loading: Ref<boolean>; reload: () => Promise<void> }

export function useLoad<T>(
  fetcher: () => Promise<T>,
  opts: { deps?: () => unknown; on?: Changed["what"][]; keep?: boolean } = {},
): Loaded<T> {
  const data = ref<T | null>(null) as Ref<T | null>;
  const error = ref<string | null>(null);
  const loading = ref(true);
  let seq = 0;
  async function reload(): Promise<void> {
    const mine = ++seq;
    loading.value = true;
    try {
      const value = await fetcher();
      if (mine !== seq) return;
      data.value = value;
      error.value = null;
    } catch (err) {
      if (mine !== seq) return;
      error.value = errorText(err);
      if (!opts.keep) data.value = null;
    } finally {
      if (mine === seq) loading.value = false;
    }
  }
  void reload();
  if (opts.deps) watch(opts.deps, () => void reload());
  let timer: ReturnType<typeof setTimeout> | undefined;
  const off = onChanged((c) => {
    if (!opts.on?.includes(c.what)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), 250);
  });
  onBeforeUnmount(() => {
    off();
    clearTimeout(timer);
  });
  return { data, error, loading, reload };
}
