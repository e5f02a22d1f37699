/**
 * How a piece of the server's answer (a JSON body, an event's data) becomes one line for the
 * host. The server's JSON text is handed over as sent (the proxy never rewrites a server's
 * answer), only the line breaks in it
 * removed (JSON allows whitespace there and nowhere else, so nothing else changes); text that
 * is not JSON has each line break turned into a space (it still reaches the host as one line).
 * Surrounding whitespace is trimmed, an empty piece sends nothing, and a `\n` ends the line.
 */
const NL = Buffer.from("\n");

export function hostLineFromText(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  if (!/[\r\n]/.test(trimmed)) return Buffer.from(`${trimmed}\n`, "utf8");
  const oneLine = parsesAsJson(trimmed) ? trimmed.replace(/[\r\n]/g, "") : trimmed.replace(/\r?\n|\r/g, " ");
  return Buffer.from(`${oneLine}\n`, "utf8");
}

/** The same for a whole body; a body with no line break inside passes byte for byte. */
export function hostLineFromBytes(body: Buffer): Buffer | undefined {
  let start = 0;
  let end = body.length;
  while (start < end && isSpace(body[start]!)) start++;
  while (end > start && isSpace(body[end - 1]!)) end--;
  if (start === end) return undefined;
  const inner = body.subarray(start, end);
  if (inner.indexOf(0x0a) === -1 && inner.indexOf(0x0d) === -1) return Buffer.concat([inner, NL]);
  return hostLineFromText(inner.toString("utf8"));
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x0b;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
