/**
 * `proposal_check`: with no model, the call's values whose record the confirmation chose
 * another of. When a value of the call (an order id, an item, a card) belongs to a list of
 * records the session looked up, and the customer's reply (else the agent's proposal, when
 * it names exactly one) names another record of that list, and none the call passes, the
 * value is listed. Logged only: it catches about half of the wrong-record lapses and
 * flags some confirmed writes, so it never refuses.
 */
import type { EpisodeEvent } from "../../trace/episode-types.js";
import { isObject, type Json } from "../../trace/json.js";
import type { Exchange } from "./exchange.js";

/** One flagged value: the top-level argument it sits under and the value, lowercased. */
export interface Flagged {
  argument: string;
  value: string;
}

/** A record of a looked-up list: its own scalars, and every scalar under it. */
export interface RecordOf {
  fields: Set<string>;
  all: Set<string>;
}

/** What the check flags in `args`, after `events` (the session before the call). */
export function proposalCheck(events: Iterable<EpisodeEvent>, exchange: Exchange, args: Json): Flagged[] {
  const lists: RecordOf[][] = [];
  for (const e of events) addRecordLists(e, lists);
  return proposalCheckOn(lists, exchange, args);
}

/** The record lists a successful tool result adds (its content parsed as JSON), appended to `lists`. */
export function addRecordLists(e: EpisodeEvent, lists: RecordOf[][]): void {
  if (e.kind !== "tool_result" || e.error) return;
  let value: Json;
  try {
    value = JSON.parse(e.content) as Json;
  } catch {
    return;
  }
  recordLists(value, lists);
}

/** What the check flags in `args`, given the record lists looked up before the call (oldest first). */
export function proposalCheckOn(lists: readonly RecordOf[][], exchange: Exchange, args: Json): Flagged[] {
  if (!isObject(args)) return [];
  const proposal = exchange.proposal.toLowerCase();
  const customer = exchange.customer.toLowerCase();
  const passed = new Set<string>();
  scalars(args, passed);
  const out: Flagged[] = [];
  for (const [argument, v] of Object.entries(args)) {
    const values = new Set<string>();
    scalars(v, values);
    for (const value of values) {
      if (!/[0-9]/.test(value)) continue;
      if (anotherChosen(lists, value, customer, proposal, passed)) out.push({ argument, value });
    }
  }
  return out;
}

/** Whether the first list (newest first) holding `value` in a record's fields had another record chosen. */
function anotherChosen(lists: readonly RecordOf[][], value: string, customer: string, proposal: string, passed: ReadonlySet<string>): boolean {
  for (let i = lists.length - 1; i >= 0; i--) {
    const list = lists[i]!;
    const mine = list.filter((r) => r.fields.has(value));
    if (mine.length === 0) continue;
    let chosen = named(list, customer);
    if (chosen.length === 0) {
      const offered = named(list, proposal);
      chosen = offered.length === 1 ? offered : [];
    }
    if (chosen.length === 0) return false;
    if (chosen.some((r) => mine.includes(r))) return false;
    // An exchange passing the old and the new item is not "another".
    if (chosen.some((r) => [...r.fields].some((f) => passed.has(f)))) return false;
    return true;
  }
  return false;
}

/** The records of `list` that `text` names: by a value of 4+ characters that no other record of the list holds. */
function named(list: readonly RecordOf[], text: string): RecordOf[] {
  const holders = new Map<string, number>();
  for (const r of list) for (const v of r.all) holders.set(v, (holders.get(v) ?? 0) + 1);
  return list.filter((r) => [...r.all].some((v) => Array.from(v).length >= 4 && holders.get(v) === 1 && stated(v, text)));
}

/**
 * Every list of 2 or more members anywhere in `value` (arrays, and objects of more than one
 * entry whose values are all objects: records keyed by id), as records, in the order found.
 */
export function recordLists(value: Json, out: RecordOf[][] = []): RecordOf[][] {
  const members = Array.isArray(value) ? value : isObject(value) && Object.keys(value).length > 1 && Object.values(value).every(isObject) ? Object.values(value) : undefined;
  if (members !== undefined && members.length >= 2) {
    const records: RecordOf[] = [];
    for (const m of members) {
      if (isObject(m)) {
        const fields = new Set<string>();
        for (const v of Object.values(m)) if (!isObject(v) && !Array.isArray(v)) scalars(v, fields);
        const all = new Set<string>();
        scalars(m, all);
        records.push({ fields, all });
      } else if (typeof m === "string" || typeof m === "number") {
        const one = new Set<string>();
        scalars(m, one);
        records.push({ fields: one, all: one });
      }
    }
    if (records.length > 0) out.push(records);
  }
  if (Array.isArray(value)) for (const v of value) recordLists(v, out);
  else if (isObject(value)) for (const v of Object.values(value)) recordLists(v, out);
  return out;
}

/** Every string and number under `value`, trimmed and lowercased (booleans and nulls are not values). */
export function scalars(value: Json, into: Set<string>): Set<string> {
  if (typeof value === "string") into.add(value.trim().toLowerCase());
  else if (typeof value === "number") into.add(String(value));
  else if (Array.isArray(value)) for (const v of value) scalars(v, into);
  else if (isObject(value)) for (const v of Object.values(value)) scalars(v, into);
  return into;
}

const NUMBER = /^-?[0-9.,]+$/;
const ID_WITH_DIGITS = /^[a-z_]+?_?([0-9]{4,})$/;

/**
 * Whether `text` states `value`: a number as a number (not inside a longer one; commas
 * ignored, `20.50` is `20.5`); an id such as `credit_card_4196779` also by its digits alone;
 * anything else as a substring, with or without a leading `#`.
 */
export function stated(value: string, text: string): boolean {
  if (NUMBER.test(value) && /[0-9]/.test(value)) return numbersIn(text).has(normalNumber(value.replace(/^-/, "")));
  const id = ID_WITH_DIGITS.exec(value);
  if (id !== null && digitsStated(id[1]!, text)) return true;
  return text.includes(value) || (value.startsWith("#") && text.includes(value.slice(1)));
}

function numbersIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.replaceAll(",", "").matchAll(/[0-9]+(?:\.[0-9]+)?/g)) out.add(normalNumber(m[0]));
  return out;
}

function normalNumber(n: string): string {
  const plain = n.replaceAll(",", "");
  return plain.includes(".") ? plain.replace(/0+$/, "").replace(/\.$/, "") : plain;
}

/** `digits` in `text` with no digit on either side. */
function digitsStated(digits: string, text: string): boolean {
  for (let at = text.indexOf(digits); at !== -1; at = text.indexOf(digits, at + 1)) {
    const before = at > 0 ? text[at - 1]! : "";
    const after = text[at + digits.length] ?? "";
    if (!/[0-9]/.test(before) && !/[0-9]/.test(after)) return true;
  }
  return false;
}
