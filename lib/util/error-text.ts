/** An error's text as a user should read it: its message without a stack, or the thrown value as a string. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
