/**
 * Why a program could not be read or compiled. The messages are fugue's own wording, so a
 * program rejected here reads the same as when fugue rejects it: `unknown distribution \`Normal\``, `` `Decide` takes 2
 * argument(s), got 1 ``, `unsupported program format version 2: this build of fugue
 * reads version 1`, the nesting limit. A flow's loader prefixes them with
 * `the flow's program: `.
 */
export class ProgramError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProgramError";
  }
}

export function unsupportedVersion(found: unknown): ProgramError {
  return new ProgramError(`unsupported program format version ${String(found)}: this build of fugue reads version 1`);
}

export function tooDeep(depth: number, max: number): ProgramError {
  return new ProgramError(`program nests ${depth} levels deep; the format allows at most ${max}`);
}

/** A document that is not a program's JSON form (fugue prints serde's text after the prefix). */
export function invalidJson(detail: string): ProgramError {
  return new ProgramError(`invalid program JSON: ${detail}`);
}
