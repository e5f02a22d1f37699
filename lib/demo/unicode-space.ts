/**
 * Whitespace as Rust's `str::trim` and `split_whitespace` see it (Unicode White_Space).
 * JavaScript's `trim` differs on two characters (it strips U+FEFF and keeps U+0085). The
 * demo decides "blank line" and parses HTTP heads with this one, so a client under test
 * gets the same answers from every build of the demo.
 */
function isSpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

// Loops rather than regexes: `\s+$` backtracks quadratically on long runs of spaces.
export function trimEnd(text: string): string {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(0, end);
}

export function trim(text: string): string {
  let start = 0;
  const t = trimEnd(text);
  while (start < t.length && isSpace(t.charCodeAt(start))) start++;
  return t.slice(start);
}

/** The words of `text`, split on runs of whitespace, with no empty ones. */
export function words(text: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isSpace(text.charCodeAt(i));
    if (space && start !== -1) {
      out.push(text.slice(start, i));
      start = -1;
    } else if (!space && start === -1) {
      start = i;
    }
  }
  return out;
}
