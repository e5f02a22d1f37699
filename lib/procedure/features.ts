import { tryParseJson } from "./json-parse.js";
import { isObject, JsonNumber, numberText, type Json } from "./json.js";
import { charLength, hasAsciiDigit, hasDigitRun, trimWs } from "./text.js";

/** A set flag with no value, written `TOOL:error` after a failed call. */
export const ERROR = "error";
/** The error flag of a successful call: `TOOL:error=False`, capital F as the fit wrote it. */
export const NO_ERROR = "error=False";

/** Longest record string that is a feature; longer ones are free text. */
const MAX_FIELD_CHARS = 24;
/** Longest line without `: ` that is a `says …` feature. */
const MAX_SAYS_CHARS = 60;

function size(n: number): string {
  return n === 0 ? "0" : n === 1 ? "1" : "2+";
}

/**
 * The features of one result, without the `TOOL:` prefix: the error flag, then by shape.
 * A failed call's value is `null` and gives only `error`; a float gives nothing at all,
 * however it is written, since the procedures were fitted on integers only.
 */
export function resultFeatures(value: Json, failed: boolean): string[] {
  const out = [failed ? ERROR : NO_ERROR];
  if (isObject(value)) {
    for (const [field, v] of value) {
      if (typeof v === "string") {
        if (charLength(v) <= MAX_FIELD_CHARS && !hasDigitRun(v)) out.push(`${field}=${trimWs(v).toLowerCase()}`);
      } else if (typeof v === "boolean") {
        out.push(`${field}=${v}`);
      } else if (v instanceof JsonNumber) {
        if (v.integer) out.push(`${field}=${numberText(v)}`);
      } else if (Array.isArray(v)) {
        out.push(`len(${field})=${size(v.length)}`);
      } else if (isObject(v)) {
        out.push(`len(${field})=${size(v.size)}`);
        for (const member of v.values()) {
          const status = isObject(member) ? member.get("status") : undefined;
          if (typeof status === "string") out.push(`${field}.*.status=${trimWs(status).toLowerCase()}`);
        }
      }
    }
  } else if (Array.isArray(value)) {
    out.push(`len($)=${size(value.length)}`);
  } else if (typeof value === "string") {
    out.push(...textFeatures(value));
  }
  return out;
}

/**
 * A phone check's text, line by line: `Key: a | b` gives `key=a` and `key=b` for each part
 * with no digit; a short line with no `: ` and no digit gives `says <line>`. Lines split
 * on `\n` only (one trailing `\r` dropped), as the reference reads them.
 */
export function textFeatures(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = trimWs(raw.endsWith("\r") ? raw.slice(0, -1) : raw);
    if (line === "") continue;
    const colon = line.indexOf(": ");
    if (colon === -1) {
      if (charLength(line) <= MAX_SAYS_CHARS && !hasAsciiDigit(line)) out.push(`says ${line.toLowerCase()}`);
      continue;
    }
    const key = trimWs(line.slice(0, colon)).toLowerCase();
    for (const part of line.slice(colon + 2).split("|")) {
      const p = trimWs(part);
      if (p !== "" && !hasAsciiDigit(p)) out.push(`${key}=${p.toLowerCase()}`);
    }
  }
  return out;
}

/**
 * Every string and number under a value, numbers written as the fit's language writes
 * them (`15.0`, `3`, `2.5`), so they compare with the identifiers a ticket gives.
 */
export function scalarLeaves(value: Json): string[] {
  if (typeof value === "string") return [value];
  if (value instanceof JsonNumber) return [numberText(value)];
  if (Array.isArray(value)) return value.flatMap(scalarLeaves);
  if (isObject(value)) return [...value.values()].flatMap(scalarLeaves);
  return [];
}

/**
 * A tool result's value: its JSON, and the JSON inside a JSON string when there is some;
 * text that is not JSON (empty text included) stays text.
 */
export function parseResult(content: string): Json {
  const v = tryParseJson(content);
  if (v === undefined) return content;
  if (typeof v === "string") return tryParseJson(v) ?? v;
  return v;
}
