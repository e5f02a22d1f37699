/**
 * Texts the proxy writes to the host itself: a refusal, a commit report, the appendix of a
 * flow's lookups. They quote the calls they are about (`tool {"order_id":"#W7a"}:`) and the
 * results those calls got, so they hold the same data as the calls and results they
 * quote, and get the same pseudonyms: the quoted arguments as JSON, the quoted results as
 * a tool's text. The sentences around them are the proxy's own and are kept, so a reader
 * still knows a refusal or an appendix; what else a rule's reason says is running text.
 *
 * The wording is the proxy's own (its refusals, commit reports and flow appendices; see
 * docs/guards.md and docs/active-mode.md); a spec checks it against what the proxy
 * records, so a change there shows here.
 */
import { documentValues, jsonContainer, toolText } from "./json-values.js";
import type { Visitor } from "./visitor.js";
import type { Json } from "../trace/json.js";

/** The appendix's first line. */
const APPENDIX = "--- Also looked up automatically (current results; no need to repeat these calls) ---";
/** What the agent gets for a commit it did not shape right (nothing in it is data). */
const COMMIT_USAGE =
  'stretto_commit takes {"calls": [{"name": tool, "arguments": {...}}, ...]}, one or more calls of the server\'s tools; nothing was run.';
const REFUSAL = /^(Refused by the policy check, so \S+ was not run and nothing changed: )(.*)(\.)$/s;
/** What follows a quoted call: its result after `:` or ` (error):`, or what became of it. */
const AFTER_CALL = /^(:| \(error\):| was not run| got no answer from the server| was refused by the policy check: (.*))$/s;
/** A rule's name in a reason, kept: `(policy check retail.cancel_reason)`. */
const RULE = /(\(policy check [A-Za-z0-9_.-]+\))/;

/** A quoted call: the tool, its arguments, and what follows them on the line. */
interface CallLine {
  tool: string;
  args: string;
  after: string;
}

/** One text item of a response the proxy wrote to the host. */
export function proxyText(text: string, v: Visitor): string {
  if (text === COMMIT_USAGE) return text;
  if (jsonContainer(text) !== undefined) return toolText(text, v);
  const refusal = REFUSAL.exec(text);
  if (refusal) return refusal[1] + reason(refusal[2]!, v) + refusal[3];
  const ls = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < ls.length; ) {
    const line = ls[i]!;
    const call = callLine(line);
    i++;
    if (call === undefined) {
      out.push(line === APPENDIX ? line : v.words(line));
      continue;
    }
    out.push(rewriteCall(call, v));
    if (!call.after.endsWith(":")) continue;
    // The result runs to the blank line before the next quoted call, or to the end.
    let end = i;
    while (end < ls.length && !(ls[end] === "" && end + 1 < ls.length && callLine(ls[end + 1]!) !== undefined)) end++;
    out.push(toolText(ls.slice(i, end).join("\n"), v));
    i = end;
  }
  return out.join("\n");
}

/** A refusal's reason: the rules' names kept, the rest running text (the spaces around each piece kept). */
function reason(text: string, v: Visitor): string {
  return text
    .split(RULE)
    .map((part, k) => {
      if (k % 2 === 1) return part;
      const lead = /^\s*/.exec(part)![0];
      const trail = part.length > lead.length ? /\s*$/.exec(part)![0] : "";
      return lead + v.words(part) + trail;
    })
    .join("");
}

function rewriteCall(call: CallLine, v: Visitor): string {
  const args = JSON.stringify(documentValues(JSON.parse(call.args) as Json, v));
  const m = AFTER_CALL.exec(call.after)!;
  const after = m[2] === undefined ? call.after : call.after.slice(0, call.after.length - m[2].length) + reason(m[2], v);
  return `${call.tool} ${args}${after}`;
}

/** `line` read as a quoted call, if it is one: a tool name, a space, a JSON object, and a known ending. */
function callLine(line: string): CallLine | undefined {
  const space = line.indexOf(" ");
  if (space <= 0 || line[space + 1] !== "{") return undefined;
  const end = objectEnd(line, space + 1);
  if (end === undefined) return undefined;
  const after = line.slice(end);
  if (!AFTER_CALL.test(after)) return undefined;
  const args = line.slice(space + 1, end);
  if (jsonContainer(args) === undefined) return undefined;
  return { tool: line.slice(0, space), args, after };
}

/** Where the JSON object that starts at `start` ends (one past its `}`), minding strings. */
function objectEnd(s: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}
