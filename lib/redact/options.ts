/** What a redaction is asked to do. */
export interface RedactOptions {
  /** The secret the hashes are salted with; without it, anyone could hash guesses and match them. */
  salt: string;
  /** Values at least this many sessions share are kept (unless a named field holds them). */
  keepShared: number;
  /** Fields (JSON keys, at any depth) whose values, and each word of them, are always hashed. */
  hashFields: readonly string[];
}

/** The default of `--keep-shared`. */
export const KEEP_SHARED = 3;
