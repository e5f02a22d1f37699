/**
 * An error of a procedure run, with an optional cause, printed as
 * `Error: <message>` and, when there is a cause, `Caused by:` and the cause indented.
 */
export class ProcedureError extends Error {
  constructor(
    message: string,
    readonly causeText?: string,
  ) {
    super(message);
    this.name = "ProcedureError";
  }

  /** The text for stderr, ending in a newline. */
  report(): string {
    return this.causeText === undefined
      ? `Error: ${this.message}\n`
      : `Error: ${this.message}\n\nCaused by:\n    ${this.causeText}\n`;
  }
}
