import { isUtf8 } from "node:buffer";

/**
 * The bytes up to `end` (from `start`) as text, or undefined when they are not valid UTF-8. Decoded first:
 * invalid UTF-8 decodes to U+FFFD, so only a text holding one needs its bytes checked, and a
 * line read on the forwarding path makes one call out of JavaScript instead of two.
 */
export function utf8Text(bytes: Buffer, end = bytes.length, start = 0): string | undefined {
  const text = bytes.toString("utf8", start, end);
  if (text.indexOf("\ufffd") === -1) return text;
  return isUtf8(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end)) ? text : undefined;
}
