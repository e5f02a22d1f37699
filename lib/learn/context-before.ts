/**
 * The back-off context before step `t`: the `j` symbols before it, left-padded with START,
 * as `context(symbols.slice(0, t), j)` gives it, without copying the history at every step
 * (a long session would make a copy per step, most of it thrown away).
 */
import { START } from "../flow/decide/index.js";

export function contextBefore(symbols: readonly number[], t: number, j: number): number[] {
  const out = new Array<number>(j);
  for (let k = 0; k < j; k++) {
    const i = t - j + k;
    out[k] = i >= 0 ? symbols[i]! : START;
  }
  return out;
}
