/** Whether a value is a JSON object (not null, not an array): the one test every reader of JSON uses. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
