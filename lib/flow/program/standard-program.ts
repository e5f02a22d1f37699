/**
 * The standard run (docs/flows.md, "Flow files"): the program a flow without `program` runs, and
 * the one `stretto learn` writes. After the call that just returned, step `i` decides at
 * `decide#i` (0 hands back); unless it hands back, `outcome#i` says whether the lookup
 * succeeded; at most `max_lookups` lookups.
 */
import { parseProgram } from "./parse-program.js";
import type { Program } from "./program-types.js";

/** The standard program in fugue's text syntax, as `flow-show` prints it. */
export const STANDARD_PROGRAM_TEXT = `let prev = call;
let failed = call_failed;
for i in 0..max_lookups {
    let d <- sample(addr!("decide", i), Decide(prev, failed));
    if d == 0 {
        break;
    }
    let ok <- sample(addr!("outcome", i), Outcome(d));
    prev = d;
    failed = !ok;
}
pure(prev)`;

const v = (name: string) => ({ op: "var", name });

/** The standard program's JSON form. */
export const STANDARD_PROGRAM_JSON = {
  fugue_program: 1,
  body: [
    { stmt: "let", var: "prev", value: v("call") },
    { stmt: "let", var: "failed", value: v("call_failed") },
    {
      stmt: "for",
      var: "i",
      start: { op: "int", value: 0 },
      end: v("max_lookups"),
      body: [
        {
          stmt: "sample",
          var: "d",
          addr: { name: "decide", index: v("i") },
          dist: { name: "Decide", args: [v("prev"), v("failed")] },
        },
        { stmt: "if", cond: { op: "eq", lhs: v("d"), rhs: { op: "int", value: 0 } }, then: [{ stmt: "break" }] },
        { stmt: "sample", var: "ok", addr: { name: "outcome", index: v("i") }, dist: { name: "Outcome", args: [v("d")] } },
        { stmt: "assign", var: "prev", value: v("d") },
        { stmt: "assign", var: "failed", value: { op: "not", arg: v("ok") } },
      ],
    },
  ],
  ret: v("prev"),
} as const;

/** A fresh copy of the standard program. */
export function standardProgram(): Program {
  return parseProgram(structuredClone(STANDARD_PROGRAM_JSON));
}
