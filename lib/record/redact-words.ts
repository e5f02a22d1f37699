/**
 * Splitting an argument the way a shell or a connection string would, keeping every
 * character, so a redacted piece can be put back in place: `sh -c "server --token abc"`,
 * `host=db password=p`, `Server=db;Password=p q;`.
 */
export interface Split {
  /** The pieces, in order. */
  pieces: string[];
  /** `gaps[i]` comes before `pieces[i]`; the last gap comes after the last piece. */
  gaps: string[];
}

/**
 * Splits at runs of separator characters outside quotes (`'…'`, and `"…"` with backslash
 * escapes); an unterminated quote runs to the end.
 */
export function splitOutsideQuotes(text: string, isSeparator: (ch: string) => boolean): Split {
  const pieces: string[] = [];
  const gaps: string[] = [];
  let gapStart = 0;
  let pieceStart = -1;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== undefined) {
      if (ch === "\\" && quote === '"') i++;
      else if (ch === quote) quote = undefined;
    } else if (isSeparator(ch)) {
      if (pieceStart !== -1) {
        pieces.push(text.slice(pieceStart, i));
        pieceStart = -1;
        gapStart = i;
      }
    } else {
      if (pieceStart === -1) {
        gaps.push(text.slice(gapStart, i));
        pieceStart = i;
      }
      if (ch === '"' || ch === "'") quote = ch;
    }
  }
  if (pieceStart !== -1) {
    pieces.push(text.slice(pieceStart));
    gapStart = text.length;
  }
  gaps.push(text.slice(gapStart));
  return { pieces, gaps };
}

export function joinSplit(split: Split): string {
  let out = "";
  split.pieces.forEach((p, i) => (out += split.gaps[i] + p));
  return out + split.gaps[split.pieces.length];
}

export const isSpace = (ch: string): boolean => ch === " " || ch === "\t" || ch === "\n" || ch === "\r" || ch === "\f" || ch === "\v";
export const isPairSeparator = (ch: string): boolean => ch === ";" || ch === "&";

/** A word wholly in matching quotes, without them; undefined otherwise. */
export function unquote(word: string): { quote: string; inner: string } | undefined {
  const q = word[0];
  if (word.length < 2 || (q !== '"' && q !== "'") || word[word.length - 1] !== q) return undefined;
  return { quote: q, inner: word.slice(1, -1) };
}
