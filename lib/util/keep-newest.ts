/**
 * Keeps the newest instance of a class alive, and with it the V8 map (hidden class) its
 * instances share. V8 holds the maps a class's fields lead to only weakly: a full collection
 * that finds no instance alive (a class made per call or per decision, between two of them)
 * drops the map, throws away every optimized function that checked it ("weak objects" under
 * `--trace-deopt`), and the next instances get a new map that those functions must be
 * compiled for again. One instance kept keeps the map, so instances made later share it.
 *
 * Call it last in the constructor, once every field is set. It holds one instance per class
 * until the next is made: only for classes whose instances are small or short-lived.
 */
const newest = new Map<unknown, object>();

export function keepNewest(instance: object): void {
  newest.set(instance.constructor, instance);
}
