/**
 * Lines the proxy writes itself, in the natural key order (`jsonrpc`, `id`, then `result`
 * or `error`), carrying the host's id exactly as the host wrote it: `9007199254740993`
 * stays that, not the double JSON.parse makes of it, so the host can match its answer.
 */

/** A JSON-RPC error answer; without an id when none could be read from the request. */
export function errorLine(idText: string | undefined, code: number, message: string): Buffer {
  const id = idText === undefined ? "" : `"id":${idText},`;
  return Buffer.from(`{"jsonrpc":"2.0",${id}"error":${JSON.stringify({ code, message })}}\n`);
}

/** A JSON-RPC result answer. */
export function resultLine(idText: string, result: unknown): Buffer {
  return Buffer.from(`{"jsonrpc":"2.0","id":${idText},"result":${JSON.stringify(result)}}\n`);
}

/**
 * A `tools/call` result of one text item: the bytes `resultLine` writes for
 * `{ content: [{ type: "text", text }], isError }`, written out without building the object
 * (a refusal is answered so, once per refused call).
 */
export function toolResultLine(idText: string, text: string, isError: boolean): Buffer {
  // The calls a session refuses mostly get the same text: its bytes are written once.
  if (text !== lastText || isError !== lastIsError) {
    lastTail = Buffer.from(`,"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}],"isError":${isError ? "true" : "false"}}}\n`);
    lastText = text;
    lastIsError = isError;
  }
  const idLength = Buffer.byteLength(idText);
  const out = Buffer.allocUnsafe(RESULT_HEAD.length + idLength + lastTail.length);
  RESULT_HEAD.copy(out, 0);
  out.write(idText, RESULT_HEAD.length, "utf8");
  lastTail.copy(out, RESULT_HEAD.length + idLength);
  return out;
}

const RESULT_HEAD = Buffer.from('{"jsonrpc":"2.0","id":');
/** The last text `toolResultLine` wrote, and the bytes after the id it wrote for it. */
let lastText: string | undefined;
let lastIsError = false;
let lastTail = Buffer.alloc(0);

const ID_SLOT = "\u0000stretto id\u0000";

/**
 * A message re-serialized after a change (a listing with one more tool, a result with an
 * appendix), in its own key order, with its id put back exactly as it was written.
 */
export function messageLine(message: Record<string, unknown>, idText: string | undefined): Buffer {
  if (idText === undefined || !("id" in message)) return Buffer.from(`${JSON.stringify(message)}\n`);
  const text = JSON.stringify({ ...message, id: ID_SLOT });
  return Buffer.from(`${text.replace(JSON.stringify(ID_SLOT), () => idText)}\n`);
}
