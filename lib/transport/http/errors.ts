/**
 * What the host and stderr are told when the HTTP server fails it (docs/http-upstream.md,
 * "Errors the host can get").
 * The host always gets a JSON-RPC error for a request, so it never waits forever; stderr
 * gets the proxy's own account (the caller prefixes `stretto-proxy: `).
 */
export const ERROR_CODE = -32000;

/** Host error messages (after `stretto-proxy: `). */
export const UNREACHABLE = "the server could not be reached";
export const SESSION_ENDED = "the server has ended the session";
export const CUT_OFF = "the server's answer was cut off";
export const EMPTY_ANSWER = "the server's answer to a request was empty";
export const MISMATCHED = "the server's answer did not match the request";

/** `the server answered HTTP 401 Unauthorized`. */
export function answeredHttp(status: number, reason: string | undefined): string {
  return `the server answered HTTP ${status} ${reason ?? ""}`.trimEnd();
}

/** Stderr lines (after `stretto-proxy: `). */
export const stderrText = {
  unreachable: (e: string) => `the HTTP server could not be reached: ${e}`,
  cutOff: (e: string) => `reading the HTTP server's answer: ${e}`,
  ending: (e: string) => `ending the HTTP session: ${e}`,
};

/**
 * The proxy's own error answer, keys in their natural order (as servers write them, not sorted):
 * `{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"stretto-proxy: …"}}` and `\n`.
 * `idJson` is the request's id as JSON text.
 */
export function errorLine(idJson: string, message: string): Buffer {
  return Buffer.from(
    `{"jsonrpc":"2.0","id":${idJson},"error":{"code":${ERROR_CODE},"message":${JSON.stringify(`stretto-proxy: ${message}`)}}}\n`,
  );
}

/**
 * The error answers for requests a body failed to answer: one line as `errorLine` writes it,
 * or, for requests the host sent as a batch, one array of them (a batch is answered by one).
 */
export function errorLines(idsJson: readonly string[], batch: boolean, message: string): Buffer {
  if (!batch && idsJson.length === 1) return errorLine(idsJson[0]!, message);
  const each = idsJson.map((id) => errorLine(id, message).subarray(0, -1).toString("utf8"));
  return Buffer.from(`[${each.join(",")}]\n`);
}

/**
 * Whether a logged message is one of these answers (or a batch of them). They are logged as the proxy's (it
 * wrote them), but stand in for the server's answer: a replay plays them as the server's.
 */
export function isErrorAnswer(message: unknown): boolean {
  if (Array.isArray(message)) return message.length > 0 && message.every((m) => isErrorAnswer(m));
  if (message === null || typeof message !== "object" || Array.isArray(message)) return false;
  const error = (message as { error?: unknown }).error;
  if (error === null || typeof error !== "object") return false;
  const { code, message: text } = error as { code?: unknown; message?: unknown };
  return code === ERROR_CODE && typeof text === "string" && text.startsWith("stretto-proxy: ");
}

/** An error's text as a user should read it: the message, without a stack. */
export function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    // A socket error's message already names the cause (`connect ECONNREFUSED …`); some have only a code.
    return err.message !== "" ? err.message : typeof code === "string" ? code : err.name;
  }
  return String(err);
}
