import { isObject as isPlainObject } from "../util/is-object.js";

/** A parsed JSON value, as the demo reads and writes it. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** Whether a value is a JSON object (`isObject` of lib/util, typed for these values). */
export const isObject = isPlainObject as (value: Json | undefined) => value is JsonObject;

/**
 * `value[key]` when `value` is an object that has it, like serde_json's `Value::get`:
 * nothing for arrays, strings and the rest, and never an inherited property.
 */
export function field(value: Json | undefined, key: string): Json | undefined {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** The field when it is a string (serde's `.and_then(Value::as_str)`). */
export function stringField(value: Json | undefined, key: string): string | undefined {
  const v = field(value, key);
  return typeof v === "string" ? v : undefined;
}
