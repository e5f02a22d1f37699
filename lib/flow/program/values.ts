/**
 * The values a program computes with, and fugue's coercions between them: integers
 * (loop variables, tool ids, decisions), floats, booleans (outcomes) and arrays of numbers.
 */
export type Value =
  | { t: "int"; v: number }
  | { t: "f64"; v: number }
  | { t: "bool"; v: boolean }
  | { t: "arr"; v: number[] };

/** A site's value: a decision's option index, or an outcome's success. */
export type SiteValue = number | boolean;

export const int = (v: number): Value => ({ t: "int", v });
export const f64 = (v: number): Value => ({ t: "f64", v });
export const bool = (v: boolean): Value => ({ t: "bool", v });

export function typeName(x: Value): string {
  return x.t === "arr" ? "array" : x.t;
}

/** A number (a bool reads as 1 or 0); none for an array. */
export function asF64(x: Value): number | undefined {
  if (x.t === "bool") return x.v ? 1 : 0;
  return x.t === "arr" ? undefined : x.v;
}

/** A bool (a number is true when not 0); none for NaN or an array. */
export function asBool(x: Value): boolean | undefined {
  if (x.t === "bool") return x.v;
  if (x.t === "arr" || Number.isNaN(x.v)) return undefined;
  return x.v !== 0;
}

/** An integer (a float with an integral value converts; a bool reads as 1 or 0). */
export function asInt(x: Value): number | undefined {
  if (x.t === "bool") return x.v ? 1 : 0;
  if (x.t === "arr" || !Number.isInteger(x.v)) return undefined;
  return x.v;
}

/** A non-negative integer: an index. */
export function asUsize(x: Value): number | undefined {
  const i = asInt(x);
  return i !== undefined && i >= 0 ? i : undefined;
}

/** A site value as a program value. */
export function fromSite(v: SiteValue): Value {
  return typeof v === "boolean" ? bool(v) : int(v);
}

/** How an address index prints: `decide#0`. */
export function displayIndex(x: Value): string {
  return x.t === "arr" ? `[${x.v.join(", ")}]` : String(x.v);
}
