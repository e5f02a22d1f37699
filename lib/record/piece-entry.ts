/**
 * A long line's log entry, made from the pieces it arrived in without ever joining them.
 *
 * A short line is classified by `JSON.parse` of its whole text (log-entry.ts). For a line of
 * many megabytes that costs the line three and four times over (its text, the parsed value,
 * the joined entry), so the writer thread takes long lines in pieces and decides here,
 * with the same rules, in one pass over them: the bytes must be UTF-8 (a fatal streaming
 * decoder), the text one JSON value (stream-json's tokenizer, which builds no value), and the
 * value must read back (no lone surrogate in a string or key, no number past f64, no nesting
 * deeper than MAX_DEPTH). The entry is then the pieces themselves between its head and tail,
 * or, as `raw`, the text escaped piece by piece.
 */
import { jsonParser, type Token } from "stream-json/core/parser.js";
import { getManyValues, isMany, none, type Many } from "stream-chain/defs.js";
import type { Sender } from "../bus/frame.js";
import { MAX_DEPTH } from "../protocol/reads-back.js";

/** The tokenizer as it is called: with text, then once with `none` to finish. */
type Tokenizer = (text: string | typeof none) => Token | Many<Token> | typeof none;

/** How a line in pieces is logged: the parts of its entry body, in order. */
export type PieceKind = { kind: "message"; json: Buffer[] } | { kind: "raw"; text: Buffer[] };

/** The entry (head, body, tail) for a line held in `pieces`, as buffers to write in order. */
export function formatPieceEntry(tMs: number, from: Sender, pieces: readonly Buffer[], forceRaw = false): Buffer[] {
  const c = classifyPieces(pieces, forceRaw);
  const head = `{"t_ms":${tMs},"from":"${from}",`;
  if (c.kind === "message") return [Buffer.from(`${head}"message":`), ...c.json, Buffer.from("}\n")];
  return [Buffer.from(`${head}"raw":`), ...c.text, Buffer.from("}\n")];
}

/** Classifies a line held in pieces exactly as `classifyLine` classifies it whole. */
export function classifyPieces(pieces: readonly Buffer[], forceRaw = false): PieceKind {
  const body = withoutLineEnd(pieces);
  if (!forceRaw && isMessage(body)) return { kind: "message", json: trimJsonSpace(body) };
  return { kind: "raw", text: escapedText(body) };
}

/** Whether the pieces are UTF-8 holding one JSON value that reads back. */
function isMessage(body: readonly Buffer[]): boolean {
  const c = new MessageCheck();
  for (const p of body) c.take(p);
  return c.isMessage();
}

/**
 * The `message` rules, taken a piece at a time as a long line arrives: UTF-8 (a fatal
 * streaming decoder), one JSON value (stream-json's tokenizer) that reads back. The line's
 * end (`\n`, `\r\n`) may be fed too: it is JSON whitespace and ASCII, so it changes nothing.
 */
export class MessageCheck {
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  // Its declared type takes text only; flushing with `none` is how it is finished.
  private readonly tokens = jsonParser({ packValues: false }) as unknown as Tokenizer;
  private readonly check = new ReadsBackCheck();
  private failed = false;

  take(piece: Buffer): void {
    if (this.failed) return;
    try {
      for (const slice of slices([piece])) {
        const text = this.decoder.decode(slice, { stream: true });
        if (text.length > 0 && !this.check.take(this.tokens(text))) {
          this.failed = true;
          return;
        }
      }
    } catch {
      // Not UTF-8, or not JSON.
      this.failed = true;
    }
  }

  isMessage(): boolean {
    if (this.failed) return false;
    try {
      const rest = this.decoder.decode();
      if (rest.length > 0 && !this.check.take(this.tokens(rest))) return false;
      return this.check.take(this.tokens(none)) && this.check.done();
    } catch {
      // Not UTF-8, or not exactly one JSON value.
      return false;
    }
  }
}

/**
 * Text is decoded a slice at a time: strings this small are young garbage the collector
 * reclaims at once, where a string per megabyte piece would wait for a full collection.
 */
const SLICE_BYTES = 64 * 1024;

function* slices(pieces: readonly Buffer[]): Generator<Buffer> {
  for (const p of pieces) for (let i = 0; i < p.length; i += SLICE_BYTES) yield p.subarray(i, i + SLICE_BYTES);
}

/** The read-back rules, checked token by token as the tokenizer hands them over. */
class ReadsBackCheck {
  private depth = 0;
  /** A high surrogate that ended the last string chunk, waiting for its low half. */
  private carry = "";
  private number = "";
  private sawValue = false;

  take(out: ReturnType<Tokenizer>): boolean {
    if (out === none) return true;
    if (isMany(out)) {
      for (const t of getManyValues<Token>(out)) if (!this.token(t)) return false;
      return true;
    }
    return this.token(out);
  }

  done(): boolean {
    return this.sawValue && this.depth === 0;
  }

  private token(t: Token): boolean {
    switch (t.name) {
      case "startObject":
      case "startArray":
        this.sawValue = true;
        return ++this.depth <= MAX_DEPTH;
      case "endObject":
      case "endArray":
        this.depth--;
        return true;
      case "startString":
      case "startKey":
        this.sawValue = true;
        this.carry = "";
        return true;
      case "stringChunk":
        return this.chunk(t.value);
      case "endString":
      case "endKey":
        // A high surrogate that no low half followed is a lone one.
        return this.carry === "";
      case "startNumber":
        this.sawValue = true;
        this.number = "";
        return true;
      case "numberChunk":
        this.number += t.value;
        return true;
      case "endNumber":
        return Number.isFinite(Number(this.number));
      default:
        this.sawValue = true;
        return true;
    }
  }

  /** A string's chunk, whose last unit may be the first half of a pair split across chunks. */
  private chunk(value: string): boolean {
    let text = this.carry + value;
    this.carry = "";
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.carry = text.slice(-1);
      text = text.slice(0, -1);
    }
    return text.isWellFormed();
  }
}

/** The pieces minus a trailing `\n` or `\r\n` (see stripLineEnd), as views. */
function withoutLineEnd(pieces: readonly Buffer[]): Buffer[] {
  const out = pieces.filter((p) => p.length > 0);
  const lastByte = (): number | undefined => {
    const p = out[out.length - 1];
    return p === undefined ? undefined : p[p.length - 1];
  };
  const dropLast = (): void => {
    const p = out.pop()!;
    if (p.length > 1) out.push(p.subarray(0, p.length - 1));
  };
  if (lastByte() !== 0x0a) return out;
  dropLast();
  if (lastByte() === 0x0d) dropLast();
  return out;
}

function isJsonSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/** The pieces minus JSON whitespace at both ends, as views. */
function trimJsonSpace(pieces: readonly Buffer[]): Buffer[] {
  const out = [...pieces];
  while (out.length > 0) {
    const p = out[0]!;
    let s = 0;
    while (s < p.length && isJsonSpace(p[s])) s++;
    if (s < p.length) {
      out[0] = p.subarray(s);
      break;
    }
    out.shift();
  }
  while (out.length > 0) {
    const p = out[out.length - 1]!;
    let e = p.length;
    while (e > 0 && isJsonSpace(p[e - 1])) e--;
    if (e > 0) {
      out[out.length - 1] = p.subarray(0, e);
      break;
    }
    out.pop();
  }
  return out;
}

/**
 * The text of the pieces (invalid UTF-8 replaced, as a whole-line decode does) as one JSON
 * string, escaped piece by piece: the streaming decoder only ever hands over whole code
 * points, so escaping each decoded piece and joining them equals escaping the whole.
 */
function escapedText(body: readonly Buffer[]): Buffer[] {
  const escape = new TextEscape();
  const out: Buffer[] = [Buffer.from('"')];
  for (const p of body) out.push(...escape.take(p));
  out.push(...escape.end(), Buffer.from('"'));
  return out;
}

/** `escapedText` a piece at a time: each call gives the escaped text (no quotes) of its bytes. */
export class TextEscape {
  private readonly decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

  take(piece: Buffer): Buffer[] {
    const out: Buffer[] = [];
    for (const slice of slices([piece])) out.push(...escaped(this.decoder.decode(slice, { stream: true })));
    return out;
  }

  end(): Buffer[] {
    return escaped(this.decoder.decode());
  }
}

function escaped(text: string): Buffer[] {
  return text.length > 0 ? [Buffer.from(JSON.stringify(text).slice(1, -1))] : [];
}
