/**
 * Typed arrays kept from one use to the next, for work repeated many times over arrays of
 * about the same sizes (the code-feature search scores a trial map per candidate per
 * round, each over every training step).
 *
 * Allocating them afresh for each trial left megabytes of dead buffers a trial for the
 * collector to find, and glibc's heap grew to hold them in the meantime (buffers of a few
 * hundred KB are carved from its main arena, which is never given back). Kept here, each
 * name's buffer is allocated again only when a larger one is asked for.
 */
type Kind = "int32" | "float64" | "uint8";
type ArrayOf<K extends Kind> = K extends "int32" ? Int32Array : K extends "float64" ? Float64Array : Uint8Array;

const make = { int32: (n: number) => new Int32Array(n), float64: (n: number) => new Float64Array(n), uint8: (n: number) => new Uint8Array(n) };

export class ScratchArrays {
  private readonly kept = new Map<string, Int32Array | Float64Array | Uint8Array>();

  /**
   * `n` zeros under `name`: a view of the kept buffer, valid until `name` is asked for
   * again. Each name is one kind of array.
   */
  zeros<K extends Kind>(name: string, kind: K, n: number): ArrayOf<K> {
    let a = this.kept.get(name) as ArrayOf<K> | undefined;
    if (a === undefined || a.length < n) {
      // A little room over the old size, so slowly growing sizes do not allocate every time.
      a = make[kind](Math.max(n, a === undefined ? 0 : Math.floor(1.25 * a.length))) as ArrayOf<K>;
      this.kept.set(name, a);
      return a.subarray(0, n) as ArrayOf<K>;
    }
    const view = a.subarray(0, n) as ArrayOf<K>;
    view.fill(0);
    return view;
  }
}

/** Fresh arrays every time: for a single use, where keeping them would only hold memory longer. */
export const FRESH: Pick<ScratchArrays, "zeros"> = {
  zeros: <K extends Kind>(_name: string, kind: K, n: number) => make[kind](n) as ArrayOf<K>,
};
