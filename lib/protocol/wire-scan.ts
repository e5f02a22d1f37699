import { createRequire } from "node:module";
import type * as JsoncParser from "jsonc-parser";

// Loaded on first use: about 25 ms that a proxy which never scans a line should not pay
// at every start (hosts start servers often).
const require = createRequire(import.meta.url);
let jsonc: typeof JsoncParser | undefined;
const parser = () => (jsonc ??= require("jsonc-parser") as typeof JsoncParser);

/**
 * What one strict pass over a line's JSON text finds beyond what JSON.parse says: the first
 * syntax error, a key written twice, the nesting depth, and where each message of the line
 * sits and how its `id` is written. JSON.parse cannot tell `"id":1e2` from `"id":100`, nor
 * see that `"name"` came twice (a first-wins server would run the other name).
 */
export interface WireScan {
  /** The first syntax error, as `<what> at character <n>`. */
  readonly syntaxError?: string;
  /** The first key an object holds twice. */
  readonly duplicateKey?: string;
  /** Whether the text nests deeper than {@link MAX_MESSAGE_DEPTH}. */
  readonly tooDeep: boolean;
  /** Whether the top-level value is an array (a JSON-RPC batch). */
  readonly batch: boolean;
  /** One per message: the top-level value, or each element of a top-level array. */
  readonly parts: readonly WirePart[];
}

export interface WirePart {
  /** Where the part's text starts and how long it is (UTF-16 units of the scanned text). */
  readonly offset: number;
  readonly length: number;
  /** Whether the part is a JSON object (only an object can be a message). */
  readonly object: boolean;
  /** Each `id` member of the part exactly as written (`1`, `"a"`, `1e2`, `{"n":21}`). */
  readonly idTexts: readonly string[];
}

/** The depth a log entry can hold for a strict reader (the message sits inside the entry). */
export const MAX_MESSAGE_DEPTH = 126;

interface OpenPart {
  offset: number;
  length: number;
  object: boolean;
  idTexts: string[];
}

/** Scans `text` (well-formed, from valid UTF-8). Never throws. */
export function scanWire(text: string): WireScan {
  let syntaxError: string | undefined;
  let duplicateKey: string | undefined;
  let tooDeep = false;
  let batch = false;
  const parts: OpenPart[] = [];
  // One key set per open object, null per open array: depth is the stack's length.
  const open: Array<Set<string> | null> = [];
  // The member key just read and the depth it was read at, until its value begins.
  let key: string | undefined;
  let keyDepth = -1;
  // An `id` whose value is an object or array: where it began and its depth once open.
  let idStart: { offset: number; depth: number } | undefined;

  const messageDepth = () => (batch ? 2 : 1);
  const isPartStart = () => open.length === 0 || (batch && open.length === 1);
  const isIdValue = () => key === "id" && keyDepth === messageDepth();

  const begin = (offset: number, object: boolean) => {
    if (isPartStart()) parts.push({ offset, length: 0, object, idTexts: [] });
    if (isIdValue()) idStart = { offset, depth: open.length + 1 };
    key = undefined;
    open.push(object ? new Set() : null);
    if (open.length > MAX_MESSAGE_DEPTH) tooDeep = true;
  };
  const end = (offset: number, length: number) => {
    if (idStart && idStart.depth === open.length) {
      parts[parts.length - 1]?.idTexts.push(text.slice(idStart.offset, offset + length));
      idStart = undefined;
    }
    open.pop();
    if (isPartStart()) {
      const p = parts[parts.length - 1];
      if (p) p.length = offset + length - p.offset;
    }
  };

  try {
    parser().visit(
      text,
      {
        onObjectBegin: (offset) => begin(offset, true),
        onObjectEnd: end,
        onArrayBegin(offset) {
          if (open.length === 0) {
            // The batch itself is not a part; its elements are.
            batch = true;
            key = undefined;
            open.push(null);
            return;
          }
          begin(offset, false);
        },
        onArrayEnd(offset, length) {
          if (batch && open.length === 1) {
            open.pop();
            return;
          }
          end(offset, length);
        },
        onObjectProperty(property) {
          const keys = open[open.length - 1];
          if (keys) {
            if (keys.has(property)) duplicateKey ??= property;
            keys.add(property);
          }
          key = property;
          keyDepth = open.length;
        },
        onLiteralValue(_value, offset, length) {
          if (isPartStart()) parts.push({ offset, length, object: false, idTexts: [] });
          if (isIdValue()) parts[parts.length - 1]?.idTexts.push(text.slice(offset, offset + length));
          key = undefined;
        },
        onError(error: JsoncParser.ParseErrorCode, offset) {
          syntaxError ??= `${describe(parser().printParseErrorCode(error))} at character ${offset + 1}`;
        },
      },
      { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
    );
  } catch {
    // The visitor recurses: a value nested thousands deep overflows the stack.
    tooDeep = true;
  }
  return {
    tooDeep,
    batch,
    parts,
    ...(syntaxError !== undefined ? { syntaxError } : {}),
    ...(duplicateKey !== undefined ? { duplicateKey } : {}),
  };
}

const WORDS: Record<string, string> = {
  InvalidSymbol: "an invalid symbol",
  InvalidNumberFormat: "an invalid number",
  PropertyNameExpected: "a missing property name",
  ValueExpected: "a missing value",
  ColonExpected: "a missing colon",
  CommaExpected: "a missing comma",
  CloseBraceExpected: "a missing }",
  CloseBracketExpected: "a missing ]",
  EndOfFileExpected: "text after the value",
  InvalidCommentToken: "a comment",
  UnexpectedEndOfComment: "an unfinished comment",
  UnexpectedEndOfString: "an unfinished string",
  UnexpectedEndOfNumber: "an unfinished number",
  InvalidUnicode: "an invalid \\u escape",
  InvalidEscapeCharacter: "an invalid escape",
  InvalidCharacter: "a control character in a string",
};

function describe(code: string): string {
  return WORDS[code] ?? code;
}
