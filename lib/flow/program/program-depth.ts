/**
 * The nesting depth of a program's JSON form, as fugue counts it: the program object is
 * level 1, its `body` array 2, each statement 3; an expression node is one level below
 * what holds it, a block two (array, then statement). A distribution's `args` array
 * counts even when omitted. Computed without recursion.
 */
import { isBinary, type Expr, type Program, type Stmt } from "./program-types.js";

export function programDepth(program: Program): number {
  let max = 2;
  const stmts: [Stmt, number][] = program.body.map((s) => [s, 3]);
  const exprs: [Expr, number][] = [[program.ret, 2]];
  while (stmts.length > 0) {
    const [s, d] = stmts.pop()!;
    max = Math.max(max, d);
    switch (s.stmt) {
      case "sample":
      case "observe":
        max = Math.max(max, d + 2);
        if (s.addr.index) exprs.push([s.addr.index, d + 2]);
        for (const a of s.dist.args) exprs.push([a, d + 3]);
        if (s.stmt === "observe") exprs.push([s.value, d + 1]);
        break;
      case "let":
      case "assign":
        exprs.push([s.value, d + 1]);
        break;
      case "factor":
        exprs.push([s.logw, d + 1]);
        break;
      case "for":
        exprs.push([s.start, d + 1], [s.end, d + 1]);
        max = Math.max(max, d + 1);
        for (const b of s.body) stmts.push([b, d + 2]);
        break;
      case "if":
        exprs.push([s.cond, d + 1]);
        max = Math.max(max, d + 1);
        for (const b of [...s.then, ...(s.else ?? [])]) stmts.push([b, d + 2]);
        break;
      case "break":
        break;
    }
  }
  while (exprs.length > 0) {
    const [e, d] = exprs.pop()!;
    max = Math.max(max, d);
    if (isBinary(e)) {
      exprs.push([e.lhs, d + 1], [e.rhs, d + 1]);
      continue;
    }
    switch (e.op) {
      case "array":
        max = Math.max(max, d + 1);
        for (const i of e.items) exprs.push([i, d + 2]);
        break;
      case "call":
        max = Math.max(max, d + 1);
        for (const a of e.args) exprs.push([a, d + 2]);
        break;
      case "index":
        exprs.push([e.array, d + 1], [e.index, d + 1]);
        break;
      case "len":
        exprs.push([e.array, d + 1]);
        break;
      case "neg":
      case "not":
        exprs.push([e.arg, d + 1]);
        break;
      default:
        break;
    }
  }
  return max;
}
