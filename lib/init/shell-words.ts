/**
 * Words as a POSIX shell reads them back: a word of only letters, digits and `-_./:=@%+,~`
 * stays bare (so `~/x` is still expanded by the shell that runs it); any other is put in
 * single quotes, each `'` written `'\''`; the empty word is `''`.
 */
const BARE = /^[A-Za-z0-9\-_./:=@%+,~]+$/;

export function shellWord(word: string): string {
  if (BARE.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** Words joined by spaces, each quoted as needed. */
export function shellLine(words: readonly string[]): string {
  return words.map(shellWord).join(" ");
}
