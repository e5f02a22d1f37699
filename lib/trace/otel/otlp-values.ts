/**
 * OTLP/JSON attribute values as JSON: `{"stringValue": "x"}` is `"x"`, an `intValue` (a
 * decimal string in OTLP/JSON) a number, arrays and key-value lists arrays and objects.
 */
import type { Json, JsonObject } from "../json.js";

export interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number | string;
  arrayValue?: { values?: OtlpValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
  bytesValue?: string;
}

export interface OtlpKeyValue {
  key: string;
  value?: OtlpValue;
}

export function valueJson(v: OtlpValue | undefined): Json {
  if (v === undefined) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return Number(v.doubleValue);
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(valueJson);
  if (v.kvlistValue !== undefined) return attributeObject(v.kvlistValue.values);
  if (v.bytesValue !== undefined) return v.bytesValue;
  return null;
}

/** Key-value pairs as one object; a later key wins. */
export function attributeObject(kvs: readonly OtlpKeyValue[] | undefined): JsonObject {
  const out: JsonObject = {};
  for (const kv of kvs ?? []) out[kv.key] = valueJson(kv.value);
  return out;
}
